package backend

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/base64"
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/ec2/imds"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	s3types "github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/logging"
	awsvalidation "github.com/hashicorp/aws-sdk-go-base/v2/validation"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/regfile"
)

// The s3 backend keeps the default workspace's state at key in bucket
// and another workspace's at workspace_key_prefix/NAME/key (prefix
// "env:" by default). Configuring it checks the bucket, key and region
// (the region may come from AWS_REGION or AWS_DEFAULT_REGION, and must be
// one AWS knows unless skip_region_validation), then finds credentials
// (the arguments, else the SDK's chain: environment, shared files,
// profile, instance metadata) and, unless skip_credentials_validation,
// asks STS who they belong to. Workspaces lists the bucket under the
// prefix (AccessDenied there counts as no other workspace, as the
// products allow); a state is read with HeadObject, then GetObject.
//
// Not emulated: assume_role, web identity, allowed or forbidden account
// ids, DynamoDB digests and proxies. The SDK reads the AWS_ variables of
// its credential chain from the process environment itself.

const s3DocumentationURL = "https://opentofu.org/docs/language/settings/backends/s3"

// s3NoSuchBucket is the products' text for a bucket that does not exist.
const s3NoSuchBucket = `S3 bucket does not exist.

The referenced S3 bucket must have been previously created. If the S3 bucket
was created within the last minute, please wait for a minute or two and try
again.

Error: %w
`

type s3Remote struct {
	client          *s3.Client
	bucket, key     string
	workspacePrefix string
	customerKey     []byte
	// terraform words the errors as Terraform's backend does.
	terraform bool
}

func validateS3(s settings) hcl.Diagnostics {
	if s.o.Flavour == flavour.Terraform {
		return validateS3Terraform(s)
	}
	var diags hcl.Diagnostics
	if v := s.string("bucket"); v == "" {
		diags = append(diags, s.errorAt("bucket", "Invalid bucket value", `The "bucket" attribute value must not be empty.`))
	}
	if v := s.string("key"); v == "" {
		diags = append(diags, s.errorAt("key", "Invalid key value", `The "key" attribute value must not be empty.`))
	} else if strings.HasPrefix(v, "/") || strings.HasSuffix(v, "/") {
		diags = append(diags, s.errorAt("key", "Invalid key value", `The "key" attribute value must not start or end with with "/".`))
	}
	if s.string("region") == "" && s.o.getenv("AWS_REGION") == "" && s.o.getenv("AWS_DEFAULT_REGION") == "" {
		diags = append(diags, s.errorAt("region", "Missing region value", `The "region" attribute or the "AWS_REGION" or "AWS_DEFAULT_REGION" environment variables must be set.`))
	}
	if v, ok := s.str("workspace_key_prefix"); ok && (strings.HasPrefix(v, "/") || strings.HasSuffix(v, "/")) {
		diags = append(diags, s.errorAt("workspace_key_prefix", "Invalid workspace_key_prefix value", `The "workspace_key_prefix" attribute value must not start with "/".`))
	}
	if v, ok := s.str("retry_mode"); ok {
		if _, err := aws.ParseRetryMode(v); err != nil {
			diags = append(diags, s.errorAt("retry_mode", "Invalid retry mode", fmt.Sprintf("Valid values are %q and %q.", aws.RetryModeStandard, aws.RetryModeAdaptive)))
		}
	}
	if diags.HasErrors() {
		return diags
	}
	if region := s.string("region"); region != "" && !s.isTrue("skip_region_validation") {
		if err := awsvalidation.SupportedRegion(region); err != nil {
			return hcl.Diagnostics{s.errorAt("region", "Invalid region value", err.Error())}
		}
	}
	_, d := s3CustomerKey(s)
	return d
}

// s3CustomerKey is the SSE-C key: sse_customer_key, else
// AWS_SSE_CUSTOMER_KEY, base64 of 32 bytes.
func s3CustomerKey(s settings) ([]byte, hcl.Diagnostics) {
	if k, ok := s.str("sse_customer_key"); ok {
		if len(k) != 44 {
			return nil, hcl.Diagnostics{s.errorAt("sse_customer_key", "Invalid sse_customer_key value", "sse_customer_key must be 44 characters in length")}
		}
		b, err := base64.StdEncoding.DecodeString(k)
		if err != nil {
			return nil, hcl.Diagnostics{s.errorAt("sse_customer_key", "Invalid sse_customer_key value", fmt.Sprintf("sse_customer_key must be base64 encoded: %s", err))}
		}
		return b, nil
	}
	k := s.o.getenv("AWS_SSE_CUSTOMER_KEY")
	if k == "" {
		return nil, nil
	}
	if len(k) != 44 {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid AWS_SSE_CUSTOMER_KEY value", Detail: `The environment variable "AWS_SSE_CUSTOMER_KEY" must be 44 characters in length`}}
	}
	b, err := base64.StdEncoding.DecodeString(k)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid AWS_SSE_CUSTOMER_KEY value", Detail: fmt.Sprintf(`The environment variable "AWS_SSE_CUSTOMER_KEY" must be base64 encoded: %s`, err)}}
	}
	return b, nil
}

// s3Endpoint is a custom endpoint: endpoints.NAME, else the legacy
// argument, else the variables; https:// is added to one without a
// scheme.
func s3Endpoint(s settings, name, legacy string, envs ...string) (string, bool) {
	v, ok := "", false
	if e := s.attr("endpoints"); e != cty.NilVal && e.Type().IsObjectType() && e.Type().HasAttribute(name) {
		if a := e.GetAttr(name); !a.IsNull() && a.IsKnown() {
			v, ok = a.AsString(), true
		}
	}
	if !ok {
		v, ok = s.str(legacy, envs...)
	}
	if !ok {
		return "", false
	}
	if !schemePrefix.MatchString(v) {
		v = "https://" + v
	}
	return v, true
}

var schemePrefix = regexp.MustCompile("[a-z]*://.*")

func openS3(ctx context.Context, s settings) (remoteClient, hcl.Diagnostics) {
	warnings := validateS3(s)
	if warnings.HasErrors() {
		return nil, warnings
	}
	key, _ := s3CustomerKey(s)
	region := s.string("region", "AWS_REGION", "AWS_DEFAULT_REGION")
	opts := []func(*awsconfig.LoadOptions) error{
		awsconfig.WithRegion(region),
		awsconfig.WithRetryMaxAttempts(s.integer("max_retries", "", 5)),
		// The SDK's own warnings (a response without a checksum) are
		// logged by the products only at TF_LOG levels.
		awsconfig.WithLogger(logging.Nop{}),
	}
	if s.o.HTTPClient != nil {
		opts = append(opts, awsconfig.WithHTTPClient(s.o.HTTPClient))
	}
	if f, ok := s.str("custom_ca_bundle", "AWS_CA_BUNDLE"); ok {
		b, err := regfile.ReadFileMax(f, maxCredentialsSize)
		if err != nil {
			return nil, hcl.Diagnostics{sourceless(fmt.Sprintf("loading configuration: %s", err))}
		}
		opts = append(opts, awsconfig.WithCustomCABundle(bytes.NewReader(b)))
	}
	if p := s.string("profile"); p != "" {
		opts = append(opts, awsconfig.WithSharedConfigProfile(p))
	}
	if f, ok := s.str("shared_credentials_file"); ok {
		opts = append(opts, awsconfig.WithSharedCredentialsFiles([]string{f}))
	}
	if f := s.list("shared_credentials_files"); len(f) > 0 {
		opts = append(opts, awsconfig.WithSharedCredentialsFiles(f))
	}
	if f := s.list("shared_config_files"); len(f) > 0 {
		opts = append(opts, awsconfig.WithSharedConfigFiles(f))
	}
	if v, ok := s.boolean("skip_metadata_api_check"); ok {
		state := imds.ClientEnabled
		if v {
			state = imds.ClientDisabled
		}
		opts = append(opts, awsconfig.WithEC2IMDSClientEnableState(state))
	}
	if ak, sk := s.string("access_key"), s.string("secret_key"); ak != "" || sk != "" {
		opts = append(opts, awsconfig.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(ak, sk, s.string("token"))))
	}
	cfg, err := awsconfig.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, hcl.Diagnostics{sourceless(fmt.Sprintf("loading configuration: %s", err))}
	}
	docs := s3DocumentationURL
	if s.o.Flavour == flavour.Terraform {
		docs = s3TerraformDocumentationURL
	}
	if _, err := cfg.Credentials.Retrieve(ctx); err != nil {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "No valid credential sources found",
			Detail:   fmt.Sprintf("Please see %s\nfor more information about providing credentials.\n\nError: %s\n", docs, err),
		}}
	}
	if !s.isTrue("skip_credentials_validation") {
		stsOpts := func(o *sts.Options) {
			if e, ok := s3Endpoint(s, "sts", "sts_endpoint", "AWS_ENDPOINT_URL_STS", "AWS_STS_ENDPOINT"); ok {
				o.BaseEndpoint = aws.String(e)
			}
			if r := s.string("sts_region"); r != "" {
				o.Region = r
			}
		}
		if _, err := sts.NewFromConfig(cfg, stsOpts).GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{}); err != nil {
			return nil, hcl.Diagnostics{sourceless(fmt.Sprintf("validating provider credentials: retrieving caller identity from STS: %s", err))}
		}
	}
	client := s3.NewFromConfig(cfg, func(o *s3.Options) {
		if e, ok := s3Endpoint(s, "s3", "endpoint", "AWS_ENDPOINT_URL_S3", "AWS_S3_ENDPOINT"); ok {
			o.BaseEndpoint = aws.String(e)
		}
		if v, ok := s.boolean("force_path_style"); ok {
			o.UsePathStyle = v
		}
		if v, ok := s.boolean("use_path_style"); ok {
			o.UsePathStyle = v
		}
	})
	prefix := "env:"
	if v, ok := s.str("workspace_key_prefix"); ok {
		prefix = v
	}
	r := &s3Remote{client: client, bucket: s.string("bucket"), key: s.string("key"), workspacePrefix: prefix, terraform: s.o.Flavour == flavour.Terraform}
	if s.isTrue("encrypt") {
		r.customerKey = key
	}
	return r, warnings
}

func (r *s3Remote) workspaces(ctx context.Context) ([]string, error) {
	prefix := ""
	if r.workspacePrefix != "" {
		prefix = r.workspacePrefix + "/"
	}
	list := []string{"default"}
	pages := s3.NewListObjectsV2Paginator(r.client, &s3.ListObjectsV2Input{
		Bucket: aws.String(r.bucket), Prefix: aws.String(prefix), MaxKeys: aws.Int32(1000),
	})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			var noBucket *s3types.NoSuchBucket
			if errors.As(err, &noBucket) {
				return nil, r.noSuchBucket(err)
			}
			var apiErr smithy.APIError
			denied := errors.As(err, &apiErr) && apiErr.ErrorCode() == "AccessDenied"
			switch {
			case denied && !r.terraform:
				return list, nil
			case denied && r.workspacePrefix == "env:":
				// Terraform forgives a denied listing under the
				// default prefix only, with the default workspace.
				return list[:1], nil
			case r.terraform:
				return nil, fmt.Errorf("Unable to list objects in S3 bucket %q with prefix %q: %w", r.bucket, prefix, err)
			}
			return nil, err
		}
		for _, obj := range page.Contents {
			if ws := r.workspaceOf(aws.ToString(obj.Key)); ws != "" {
				list = append(list, ws)
			}
		}
	}
	return list, nil
}

// workspaceOf is the workspace whose state is at key ("" for none):
// PREFIX/NAME/KEY, or NAME/KEY with an empty prefix.
func (r *s3Remote) workspaceOf(key string) string {
	rest := key
	if r.workspacePrefix != "" {
		var ok bool
		if rest, ok = strings.CutPrefix(key, r.workspacePrefix+"/"); !ok {
			return ""
		}
	}
	name, tail, ok := strings.Cut(rest, "/")
	if !ok || tail != r.key {
		return ""
	}
	return name
}

func (r *s3Remote) path(workspace string) string {
	if workspace == "default" {
		return r.key
	}
	return path.Join(r.workspacePrefix, workspace, r.key)
}

func (r *s3Remote) readState(ctx context.Context, workspace string) ([]byte, error) {
	key := r.path(workspace)
	head := &s3.HeadObjectInput{Bucket: aws.String(r.bucket), Key: aws.String(key)}
	get := &s3.GetObjectInput{Bucket: aws.String(r.bucket), Key: aws.String(key)}
	if r.customerKey != nil {
		k := base64.StdEncoding.EncodeToString(r.customerKey)
		sum := md5.Sum(r.customerKey)
		k5 := base64.StdEncoding.EncodeToString(sum[:])
		head.SSECustomerKey, head.SSECustomerAlgorithm, head.SSECustomerKeyMD5 = aws.String(k), aws.String("AES256"), aws.String(k5)
		get.SSECustomerKey, get.SSECustomerAlgorithm, get.SSECustomerKeyMD5 = aws.String(k), aws.String("AES256"), aws.String(k5)
	}
	if _, err := r.client.HeadObject(ctx, head); err != nil {
		var noBucket *s3types.NoSuchBucket
		var notFound *s3types.NotFound
		switch {
		case errors.As(err, &noBucket):
			return nil, r.noSuchBucket(err)
		case errors.As(err, &notFound):
			return nil, nil
		}
		return nil, r.objectError(key, err)
	}
	out, err := r.client.GetObject(ctx, get)
	if err != nil {
		var noBucket *s3types.NoSuchBucket
		var noKey *s3types.NoSuchKey
		switch {
		case errors.As(err, &noBucket):
			return nil, r.noSuchBucket(err)
		case errors.As(err, &noKey):
			return nil, nil
		}
		return nil, r.objectError(key, err)
	}
	defer out.Body.Close()
	b, err := readAllMax(out.Body)
	if err != nil {
		return nil, fmt.Errorf("Failed to read remote state: %w", err)
	}
	return b, nil
}

// noSuchBucket is the error of a bucket that does not exist.
func (r *s3Remote) noSuchBucket(err error) error {
	if r.terraform {
		return fmt.Errorf(s3TerraformNoSuchBucket, r.bucket, err)
	}
	return fmt.Errorf(s3NoSuchBucket, err)
}

// objectError is the error of a state object that cannot be read:
// Terraform names the object and the bucket.
func (r *s3Remote) objectError(key string, err error) error {
	if r.terraform {
		return fmt.Errorf("Unable to access object %q in S3 bucket %q: %w", key, r.bucket, err)
	}
	return err
}
