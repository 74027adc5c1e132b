package cli

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tfdeps/tfdeps/internal/cloudfake"
)

// cmdCloudFake starts the storage services of the s3, gcs and azurerm
// backends for a script, in memory:
//
//	cloudfake s3 BUCKET...         start an S3 with these buckets; $S3 is its URL
//	cloudfake gcs BUCKET...        start a Cloud Storage; $GCS is its URL
//	cloudfake azure ACCOUNT/CONTAINER...
//	                               start Azure Blob Storage behind an HTTPS
//	                               proxy: sets HTTPS_PROXY, SSL_CERT_FILE
//	                               (the proxy's certificate) and $AZURE_METADATA
//	                               (the metadata_host to give the backend)
//	cloudfake put s3|gcs|azure WHERE NAME FILE
//	                               store FILE's content as object NAME of
//	                               bucket (or container) WHERE
func cmdCloudFake(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! cloudfake")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: cloudfake s3|gcs|azure NAME... | cloudfake put KIND WHERE NAME FILE")
	}
	key := ts.Getenv("WORK")
	v, _ := cloudFakes.LoadOrStore(key, &scriptClouds{})
	c := v.(*scriptClouds)
	switch args[0] {
	case "s3":
		c.s3 = s3mem.New()
		for _, b := range args[1:] {
			ts.Check(c.s3.CreateBucket(b))
		}
		srv := httptest.NewServer(gofakes3.New(c.s3).Server())
		ts.Defer(srv.Close)
		ts.Setenv("S3", srv.URL)
	case "gcs":
		c.gcs = cloudfake.NewGCS(args[1:]...)
		srv := httptest.NewServer(c.gcs)
		ts.Defer(srv.Close)
		ts.Setenv("GCS", srv.URL)
	case "azure":
		c.azure = cloudfake.NewAzure(args[1:]...)
		p, err := cloudfake.StartProxy(c.azure)
		ts.Check(err)
		ts.Defer(p.Close)
		pem := filepath.Join(ts.Getenv("WORK"), ".cloudfake.pem")
		ts.Check(os.WriteFile(pem, p.CertPEM, 0o644))
		ts.Setenv("HTTPS_PROXY", p.URL)
		ts.Setenv("SSL_CERT_FILE", pem)
		ts.Setenv("AZURE_METADATA", "metadata."+cloudfake.Domain)
	case "put":
		if len(args) != 5 {
			ts.Fatalf("usage: cloudfake put KIND WHERE NAME FILE")
		}
		content, err := os.ReadFile(ts.MkAbs(args[4]))
		ts.Check(err)
		switch {
		case args[1] == "s3" && c.s3 != nil:
			_, err := c.s3.PutObject(args[2], args[3], map[string]string{}, strings.NewReader(string(content)), int64(len(content)), nil)
			ts.Check(err)
		case args[1] == "gcs" && c.gcs != nil:
			c.gcs.Put(args[2], args[3], string(content))
		case args[1] == "azure" && c.azure != nil:
			c.azure.Put(args[2], args[3], string(content))
		default:
			ts.Fatalf("cloudfake put: %s not started", args[1])
		}
	default:
		ts.Fatalf("cloudfake: unknown service %q", args[0])
	}
}

// scriptClouds are the services a script started.
type scriptClouds struct {
	s3    *s3mem.Backend
	gcs   *cloudfake.GCS
	azure *cloudfake.Azure
}

// cloudFakes are the running services, by script work directory.
var cloudFakes sync.Map
