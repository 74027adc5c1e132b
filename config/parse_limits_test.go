package config

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/internal/nesting"
)

// TestLoadRefusesTooManyTokens: a file of more than MaxFileTokens tokens
// is refused before parsing, at the token beyond the limit.
func TestLoadRefusesTooManyTokens(t *testing.T) {
	n := MaxFileTokens
	list := strings.Repeat("1,", n/2+10)
	head := "locals {\n  a = ["
	tests := []struct {
		name, file, src string
		want            hcl.Pos
	}{
		// locals, {, newline, a, =, [ are the first six tokens.
		{"native list", "main.tf", head + list + "]\n}\n",
			hcl.Pos{Line: 2, Column: 8 + n - 6, Byte: len(head) + n - 6}},
		{"native not UTF-8", "main.tf", "# \xff\n" + head + list + "]\n}\n",
			hcl.Pos{Line: 3, Column: 8 + n - 8, Byte: 4 + len(head) + n - 8}},
		// {, "locals", :, {, "a", :, [ are the first seven.
		{"json list", "main.tf.json", `{"locals": {"a": [` + list + "1]}}",
			hcl.Pos{Line: 1, Column: 19 + n - 7, Byte: 18 + n - 7}},
		// The tokens of a template count at its string.
		{"json template", "main.tf.json", `{"locals": {"a": "` + strings.Repeat("${a}", n/3+10) + `"}}`,
			hcl.Pos{Line: 1, Column: 18, Byte: 17}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, tt.file), []byte(tt.src), 0o644); err != nil {
				t.Fatal(err)
			}
			_, diags := LoadDir(dir)
			if len(diags) != 1 || diags[0].Summary != "Configuration file too complex" {
				t.Fatalf("diagnostics = %v, want one too complex error", diags)
			}
			if want := "more than 3,000,000 tokens"; !strings.Contains(diags[0].Detail, want) {
				t.Errorf("detail %q does not say %q", diags[0].Detail, want)
			}
			want := &hcl.Range{Filename: filepath.Join(dir, tt.file), Start: tt.want,
				End: hcl.Pos{Line: tt.want.Line, Column: tt.want.Column + 1, Byte: tt.want.Byte + 1}}
			if diff := cmp.Diff(want, diags[0].Subject); diff != "" {
				t.Errorf("subject (-want +got):\n%s", diff)
			}
			if !RefusedBeforeParsing(filepath.Join(dir, tt.file), []byte(tt.src)) {
				t.Error("RefusedBeforeParsing = false")
			}
		})
	}
}

// tokenDenseKinds generate about n tokens of each kind of input whose
// tokens cost the most memory to parse and load.
var tokenDenseKinds = []struct {
	name, file string
	gen        func(n int) string
}{
	{"brackets", "main.tf", func(n int) string {
		return repeatBlocks(n, 2*900+5, func(i int) string {
			return fmt.Sprintf("locals {\n  a%d = %s%s\n}\n", i, strings.Repeat("[", 900), strings.Repeat("]", 900))
		})
	}},
	{"braces", "main.tf", func(n int) string {
		return repeatBlocks(n, 4*300+6, func(i int) string {
			return fmt.Sprintf("locals {\n  a%d = %s1%s\n}\n", i, strings.Repeat("{a=", 300), strings.Repeat("}", 300))
		})
	}},
	{"numbers", "main.tf", func(n int) string { return "locals {\n  a = [" + strings.Repeat("1,", n/2) + "]\n}\n" }},
	{"operators", "main.tf", func(n int) string {
		return repeatBlocks(n, 900+8, func(i int) string { return fmt.Sprintf("locals {\n  a%d = %s1\n}\n", i, strings.Repeat("-", 900)) }) +
			"locals {\n  b = 1" + strings.Repeat("+1", n/4) + "\n}\n"
	}},
	{"interpolations", "main.tf", func(n int) string { return "locals {\n  a = \"" + strings.Repeat("${a}", n/3) + "\"\n}\n" }},
	{"attributes", "main.tf", func(n int) string {
		return "locals {\n" + repeatBlocks(n, 4, func(i int) string { return fmt.Sprintf("a%d=1\n", i) }) + "}\n"
	}},
	{"blocks", "main.tf", func(n int) string { return strings.Repeat("locals {}\n", n/4) }},
	{"resources", "main.tf", func(n int) string {
		return repeatBlocks(n, 47, func(i int) string {
			return fmt.Sprintf("resource \"aws_instance\" \"w%d\" {\n  ami = \"${data.aws_ami.u.id}\"\n  tags = {\n    \"Name\" = \"w-%d\"\n  }\n  depends_on = [aws_subnet.s]\n}\n", i, i)
		})
	}},
	{"json arrays", "main.tf.json", func(n int) string {
		return `{"locals": {"a": [` + strings.Repeat("[", 500) + strings.Repeat("1,", n/2-1000) + "1" + strings.Repeat("]", 500) + "]}}"
	}},
	{"json objects", "main.tf.json", func(n int) string {
		return `{"locals": {` + repeatBlocks(n, 4, func(i int) string { return fmt.Sprintf(`"a%d":1,`, i) }) + `"z":1}}`
	}},
}

func repeatBlocks(n, tokensEach int, gen func(i int) string) string {
	var b strings.Builder
	for i := 0; i < n/tokensEach; i++ {
		b.WriteString(gen(i))
	}
	return b.String()
}

// maxBytesPerToken is the most memory (live heap at its peak) loading a
// configuration file may take per token. With MaxFileTokens it bounds
// the worst file: 3,000,000 × 400 bytes is 1.2 GB, and with the soft
// memory limit the process stays under 2 GB (bench/memory.sh measures
// the peak RSS of whole runs).
const maxBytesPerToken = 400

// TestLoadMemoryPerToken loads a file of 200,000 tokens of each dense
// kind and checks the peak of the live heap per token. The peak is
// sampled with the collector running often (a sample can only miss a
// peak, never invent one), so the check errs on the passing side by the
// little a sample misses; the 30% margin over the measured 280–310 bytes
// is for that and for hcl's future growth.
func TestLoadMemoryPerToken(t *testing.T) {
	if testing.Short() {
		t.Skip("loads ten files of 200,000 tokens")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	const n = 200_000
	for _, kind := range tokenDenseKinds {
		t.Run(kind.name, func(t *testing.T) {
			src := kind.gen(n)
			syntax := nesting.HCL
			if strings.HasSuffix(kind.file, ".json") {
				syntax = nesting.HCLJSON
			}
			tokens := nesting.Tokens([]byte(src), syntax)
			if tokens < n*9/10 || tokens > MaxFileTokens {
				t.Fatalf("generated %d tokens, want about %d", tokens, n)
			}
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, kind.file), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			size := len(src)
			src = ""
			peak := peakHeap(func() {
				if _, diags := LoadDir(dir); diags.HasErrors() {
					t.Fatal(diags)
				}
			})
			perToken := peak / uint64(tokens)
			t.Logf("%d bytes, %d tokens: peak %d bytes, %d per token", size, tokens, peak, perToken)
			if perToken > maxBytesPerToken {
				t.Errorf("loading takes %d bytes per token at its peak, want at most %d", perToken, maxBytesPerToken)
			}
		})
	}
}

// peakHeap runs f and returns the largest live heap seen above the heap
// before it, sampled every 50µs.
func peakHeap(f func()) uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	base := s[0].Value.Uint64()
	done := make(chan struct{})
	result := make(chan uint64)
	go func() {
		var peak uint64
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-done:
				result <- peak
				return
			default:
				time.Sleep(50 * time.Microsecond)
			}
		}
	}()
	f()
	close(done)
	peak := <-result
	if peak < base {
		return 0
	}
	return peak - base
}
