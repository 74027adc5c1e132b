package backend

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"cloud.google.com/go/storage"
	"github.com/hashicorp/hcl/v2"
	"golang.org/x/oauth2"
	"google.golang.org/api/iterator"
	"google.golang.org/api/option"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/regfile"
)

// The gcs backend keeps workspace NAME's state at PREFIX/NAME.tfstate in
// bucket (the prefix may be empty). Its credentials are access_token (or
// GOOGLE_OAUTH_ACCESS_TOKEN), else credentials (or
// GOOGLE_BACKEND_CREDENTIALS, GOOGLE_CREDENTIALS: a file's path or the
// JSON itself), else Google's application default credentials;
// storage_custom_endpoint (or its variables) replaces the Storage API's
// address. Workspaces lists the objects under the prefix, one level deep,
// whose names end in .tfstate; a state is read with the object's
// attributes, as the products read it.
//
// Not emulated: impersonate_service_account (an error with
// -backend-check) and kms_encryption_key (irrelevant to reading).

const gcsStateSuffix = ".tfstate"

// maxCredentialsSize bounds a credentials or key file.
const maxCredentialsSize = 1 << 20

type gcsRemote struct {
	client        *storage.Client
	bucket        string
	prefix        string
	encryptionKey []byte
}

func validateGCS(s settings) hcl.Diagnostics {
	if s.o.Flavour == flavour.Terraform {
		// Terraform's backend takes an empty bucket's name as it is;
		// it refuses both kinds of encryption key, set (even empty) or
		// from the environment.
		_, enc := s.str("encryption_key")
		_, kms := s.str("kms_encryption_key")
		if (enc && kms) || (s.string("encryption_key", "GOOGLE_ENCRYPTION_KEY") != "" && s.string("kms_encryption_key", "GOOGLE_KMS_ENCRYPTION_KEY") != "") {
			return hcl.Diagnostics{sourceless("can't set both encryption_key and kms_encryption_key")}
		}
		return nil
	}
	if s.string("bucket") == "" {
		return hcl.Diagnostics{sourceless(`"bucket": required field is not set`)}
	}
	return nil
}

func openGCS(ctx context.Context, s settings) (remoteClient, hcl.Diagnostics) {
	if d := validateGCS(s); d.HasErrors() {
		return nil, d
	}
	r, err := gcsClient(ctx, s)
	if err != nil {
		return nil, hcl.Diagnostics{errorDiag(err, s.o.Flavour)}
	}
	return r, nil
}

func gcsClient(ctx context.Context, s settings) (*gcsRemote, error) {
	r := &gcsRemote{bucket: s.string("bucket"), prefix: strings.TrimLeft(s.string("prefix"), "/")}
	if r.prefix != "" && !strings.HasSuffix(r.prefix, "/") {
		r.prefix += "/"
	}
	if _, ok := s.str("impersonate_service_account", "GOOGLE_BACKEND_IMPERSONATE_SERVICE_ACCOUNT", "GOOGLE_IMPERSONATE_SERVICE_ACCOUNT"); ok {
		return nil, &UnsupportedCredentialsError{Type: "gcs", Supported: "access_token, credentials or application default credentials (not impersonate_service_account)"}
	}
	var opts []option.ClientOption
	token, ok := s.str("access_token", "GOOGLE_OAUTH_ACCESS_TOKEN")
	creds, credsOK := s.str("credentials", "GOOGLE_BACKEND_CREDENTIALS", "GOOGLE_CREDENTIALS")
	if s.o.Flavour == flavour.Terraform {
		// Terraform takes an empty argument as unset.
		ok = s.string("access_token", "GOOGLE_OAUTH_ACCESS_TOKEN") != ""
		token = s.string("access_token", "GOOGLE_OAUTH_ACCESS_TOKEN")
		creds = s.string("credentials")
		if creds == "" {
			creds = s.string("", "GOOGLE_BACKEND_CREDENTIALS", "GOOGLE_CREDENTIALS")
		}
		credsOK = creds != ""
	}
	if ok {
		ts := oauth2.StaticTokenSource(&oauth2.Token{AccessToken: token})
		if s.o.HTTPClient != nil {
			// An injected client carries the requests, with the token.
			c := *s.o.HTTPClient
			c.Transport = &oauth2.Transport{Source: ts, Base: s.o.HTTPClient.Transport}
			opts = append(opts, option.WithHTTPClient(&c))
		} else {
			opts = append(opts, option.WithTokenSource(ts))
		}
	} else if credsOK && creds != "" {
		contents, err := readPathOrContents(creds)
		if err != nil {
			return nil, fmt.Errorf("Error loading credentials: %w", err)
		}
		if !json.Valid([]byte(contents)) {
			return nil, errors.New("the string provided in credentials is neither valid json nor a valid file path")
		}
		opts = append(opts, option.WithCredentialsJSON([]byte(contents))) //nolint:staticcheck // as the products
	}
	if e, ok := s.str("storage_custom_endpoint", "GOOGLE_BACKEND_STORAGE_CUSTOM_ENDPOINT", "GOOGLE_STORAGE_CUSTOM_ENDPOINT"); ok {
		opts = append(opts, option.WithEndpoint(e))
	}
	if d, ok := s.str("universe_domain", "GOOGLE_BACKEND_UNIVERSE_DOMAIN"); ok && s.o.Flavour != flavour.Terraform {
		opts = append(opts, option.WithUniverseDomain(d))
	}
	client, err := storage.NewClient(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("storage.NewClient() failed: %w", err)
	}
	r.client = client
	if key, ok := s.str("encryption_key", "GOOGLE_ENCRYPTION_KEY"); ok && key != "" {
		kc, err := readPathOrContents(key)
		if err != nil {
			return nil, fmt.Errorf("Error loading encryption key: %w", err)
		}
		if r.encryptionKey, err = base64.StdEncoding.DecodeString(kc); err != nil {
			return nil, fmt.Errorf("Error decoding encryption key: %w", err)
		}
	}
	return r, nil
}

// readPathOrContents is a file's content when poc names an existing file
// (~ standing for the home directory), else poc itself.
func readPathOrContents(poc string) (string, error) {
	if poc == "" {
		return poc, nil
	}
	p := poc
	if strings.HasPrefix(p, "~") {
		home, err := os.UserHomeDir()
		if err != nil {
			return poc, err
		}
		p = filepath.Join(home, p[1:])
	}
	if _, err := os.Stat(p); err != nil {
		return poc, nil
	}
	b, err := regfile.ReadFileMax(p, maxCredentialsSize)
	if err != nil {
		return string(b), err
	}
	return string(b), nil
}

func (r *gcsRemote) workspaces(ctx context.Context) ([]string, error) {
	list := []string{"default"}
	objs := r.client.Bucket(r.bucket).Objects(ctx, &storage.Query{Delimiter: "/", Prefix: r.prefix})
	for {
		attrs, err := objs.Next()
		if errors.Is(err, iterator.Done) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("querying Cloud Storage failed: %w", err)
		}
		name := path.Base(attrs.Name)
		if ws, ok := strings.CutSuffix(name, gcsStateSuffix); ok && ws != "default" {
			list = append(list, ws)
		}
	}
	return list, nil
}

func (r *gcsRemote) readState(ctx context.Context, workspace string) ([]byte, error) {
	if workspace == "" {
		return nil, fmt.Errorf("%q is not a valid state name", workspace)
	}
	name := path.Join(r.prefix, workspace+gcsStateSuffix)
	url := fmt.Sprintf("gs://%v/%v", r.bucket, name)
	obj := r.client.Bucket(r.bucket).Object(name)
	if r.encryptionKey != nil {
		obj = obj.Key(r.encryptionKey)
	}
	rd, err := obj.NewReader(ctx)
	if errors.Is(err, storage.ErrObjectNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("Failed to open state file at %v: %w", url, err)
	}
	defer rd.Close()
	b, err := readAllMax(rd)
	if err != nil {
		return nil, fmt.Errorf("Failed to read state file from %v: %w", url, err)
	}
	if _, err := obj.Attrs(ctx); err != nil {
		return nil, fmt.Errorf("Failed to read state file attrs from %v: %w", url, err)
	}
	return b, nil
}
