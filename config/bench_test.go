package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeBenchConfig generates a module of nFiles files of about fileSize
// bytes each (one in ten in JSON syntax, one in fifty an override file) and
// returns the total size.
func writeBenchConfig(tb testing.TB, dir string, nFiles, fileSize int) int64 {
	tb.Helper()
	var total int64
	lastCount := 0
	for i := 0; i < nFiles; i++ {
		var name, content string
		switch {
		case i%50 == 49:
			name, content = fmt.Sprintf("f%04d_override.tf", i), benchOverride(i-1, lastCount)
		case i%10 == 9:
			name, content = fmt.Sprintf("f%04d.tf.json", i), benchJSON(i, fileSize)
		default:
			name = fmt.Sprintf("f%04d.tf", i)
			content, lastCount = benchNative(i, fileSize)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
		total += int64(len(content))
	}
	return total
}

func benchNative(i, size int) (string, int) {
	var b strings.Builder
	fmt.Fprintf(&b, "variable \"v%d\" {\n  type    = string\n  default = \"x\"\n}\n", i)
	b.WriteString("locals {\n")
	for j := 0; j < 10; j++ {
		fmt.Fprintf(&b, "  l%d_%d = \"value-%d\"\n", i, j, j)
	}
	b.WriteString("}\n")
	n := 0
	for j := 0; b.Len() < size; j++ {
		n++
		fmt.Fprintf(&b, `resource "aws_instance" "r%d_%d" {
  ami           = "ami-%08d"
  instance_type = var.v%d
  count         = 2
  tags = {
    Name  = "instance-%d-%d"
    Owner = local.l%d_0
  }
  ebs_block_device {
    device_name = "/dev/sdh"
    volume_size = %d
  }
  lifecycle {
    create_before_destroy = true
    ignore_changes        = [tags]
  }
}
`, i, j, j, i, i, j, i, j%100)
	}
	return b.String(), n
}

func benchJSON(i, size int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"variable": {"v%d": {"default": "x"}}, "resource": {"aws_instance": {`, i)
	for j := 0; b.Len() < size; j++ {
		if j > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `
  "r%d_%d": {"ami": "ami-%08d", "instance_type": "${var.v%d}", "count": 2,
    "tags": {"Name": "instance-%d-%d"}, "lifecycle": {"create_before_destroy": true}}`, i, j, j, i, i, j)
	}
	b.WriteString("\n}}}\n")
	return b.String()
}

func benchOverride(target, count int) string {
	var b strings.Builder
	for j := 0; j < count; j++ {
		fmt.Fprintf(&b, "resource \"aws_instance\" \"r%d_%d\" {\n  ami = \"override-%d\"\n  ebs_block_device {\n    device_name = \"/dev/sdi\"\n  }\n}\n", target, j, j)
	}
	return b.String()
}

// BenchmarkLoadDir loads a generated module of 2,000 files (about 50 MB).
func BenchmarkLoadDir(b *testing.B) {
	dir := b.TempDir()
	total := writeBenchConfig(b, dir, 2000, 25_000)
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	cpuStart := processCPUTime()
	for i := 0; i < b.N; i++ {
		m, diags := LoadDir(dir)
		if diags.HasErrors() {
			b.Fatal(diags.Errs()[0])
		}
		if len(m.ManagedResources) == 0 {
			b.Fatal("no resources loaded")
		}
		_ = m.Document()
	}
	// On a shared machine wall-clock MB/s depends on the load; MB per
	// CPU-second does not. Divide by cores for the ideal wall figure.
	if cpu := processCPUTime() - cpuStart; cpu > 0 {
		b.ReportMetric(float64(total)*float64(b.N)/1e6/cpu.Seconds(), "MB/cpu-s")
	}
}

// TestBenchConfigLoads checks the generated configuration on a small scale.
func TestBenchConfigLoads(t *testing.T) {
	dir := t.TempDir()
	writeBenchConfig(t, dir, 100, 3000)
	m, diags := LoadDir(dir)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	r := m.ManagedResources["aws_instance.r48_0"]
	if r == nil {
		t.Fatal("aws_instance.r48_0 missing")
	}
	if got := r.Config().Attribute("ami").Range.Filename; !strings.HasSuffix(got, "f0049_override.tf") {
		t.Errorf("ami comes from %s, want the override file", got)
	}
}
