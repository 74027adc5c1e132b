package backend

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsvalidation "github.com/hashicorp/aws-sdk-go-base/v2/validation"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Terraform's s3 backend checks the same settings as OpenTofu's with
// texts of its own: a generic "Invalid Value" summary whose detail names
// the rule, "Missing Required Value" for an unset required argument,
// warnings for deprecated arguments and environment variables, and
// conflicts between arguments that replace one another. Every check of
// the first round runs, each argument's checks stopping at the first
// error found so far; the region and the customer key are checked after,
// when the first round passed.

const s3TerraformDocumentationURL = "https://developer.hashicorp.com/terraform/language/backend/s3"

// s3TerraformNoSuchBucket is Terraform's text for a bucket that does not
// exist (with the bucket's name).
const s3TerraformNoSuchBucket = `S3 bucket %q does not exist.

The referenced S3 bucket must have been previously created. If the S3 bucket
was created within the last minute, please wait for a minute or two and try
again.

Error: %s
`

// s3StringRule checks a string argument; the detail of the "Invalid
// Value" error when it fails, "" when it holds.
type s3StringRule func(v string) string

func s3NotEmpty(v string) string {
	if strings.TrimSpace(v) == "" {
		return "The value cannot be empty or all whitespace"
	}
	return ""
}

func s3Path(v string) string {
	if strings.HasPrefix(v, "/") || strings.HasSuffix(v, "/") {
		return `The value must not start or end with "/"`
	}
	return ""
}

func s3NoDoubleSlash(v string) string {
	if strings.Contains(v, "//") {
		return `Value must not contain "//"`
	}
	return ""
}

func s3RetryMode(v string) string {
	if _, err := aws.ParseRetryMode(v); err != nil {
		return err.Error()
	}
	return ""
}

func s3OneOf(values ...string) s3StringRule {
	return func(v string) string {
		for _, ok := range values {
			if v == ok {
				return ""
			}
		}
		return fmt.Sprintf("Value must be one of [%s]", strings.Join(values, ", "))
	}
}

func s3ValidURL(v string) string {
	u, err := url.Parse(v)
	if err != nil {
		return fmt.Sprintf("The value %q cannot be parsed as a URL: %s", v, err)
	}
	if u.Scheme == "" || u.Host == "" {
		return fmt.Sprintf("The value must be a valid URL containing at least a scheme and hostname. Had %q", v)
	}
	return ""
}

// s3TerraformCheck accumulates the diagnostics of Terraform's checks.
type s3TerraformCheck struct {
	s     settings
	diags hcl.Diagnostics
}

// rules checks argument name, when set, with rules in turn, stopping at
// the first error (this argument's or an earlier one's).
func (c *s3TerraformCheck) rules(name string, rules ...s3StringRule) {
	v, ok := c.s.str(name)
	if !ok {
		return
	}
	for _, rule := range rules {
		if detail := rule(v); detail != "" {
			c.diags = append(c.diags, c.s.errorAt(name, "Invalid Value", detail))
		}
		if c.diags.HasErrors() {
			return
		}
	}
}

// required is rules for an argument that must be set.
func (c *s3TerraformCheck) required(name string, rules ...s3StringRule) {
	if _, ok := c.s.str(name); !ok {
		c.diags = append(c.diags, c.s.errorAt(name, "Missing Required Value",
			fmt.Sprintf("The attribute %q is required by the backend.\n\nRefer to the backend documentation for additional information which attributes are required.", name)))
		return
	}
	c.rules(name, rules...)
}

// conflict is the error of arguments of which only one may be set.
func (c *s3TerraformCheck) conflict(names ...string) {
	set := 0
	for _, n := range names {
		if c.s.attr(n) != cty.NilVal {
			set++
			if set > 1 {
				d := sourceless("Invalid Attribute Combination")
				d.Detail = fmt.Sprintf("Only one of %s can be set.", strings.Join(names, ", "))
				c.diags = append(c.diags, d)
			}
		}
	}
}

// deprecated is the warning of a deprecated argument, when set.
func (c *s3TerraformCheck) deprecated(name, replacement string) {
	if c.s.attr(name) != cty.NilVal {
		c.diags = append(c.diags, c.s.diagAt(hcl.DiagWarning, name, "Deprecated Parameter",
			fmt.Sprintf(`The parameter "%s" is deprecated. Use parameter "%s" instead.`, name, replacement)))
	}
}

// s3TerraformLegacyEndpoints are the endpoint arguments that endpoints.*
// replaced, with their replacements (in the order Terraform's checks
// report them here: by name).
var s3TerraformLegacyEndpoints = []struct{ name, endpoint string }{
	{"dynamodb_endpoint", "dynamodb"},
	{"endpoint", "s3"},
	{"iam_endpoint", "iam"},
	{"sts_endpoint", "sts"},
}

// s3TerraformDeprecatedEnv are the environment variables Terraform warns
// about, with their replacements.
var s3TerraformDeprecatedEnv = [][2]string{
	{"AWS_DYNAMODB_ENDPOINT", "AWS_ENDPOINT_URL_DYNAMODB"},
	{"AWS_IAM_ENDPOINT", "AWS_ENDPOINT_URL_IAM"},
	{"AWS_METADATA_URL", "AWS_EC2_METADATA_SERVICE_ENDPOINT"},
	{"AWS_S3_ENDPOINT", "AWS_ENDPOINT_URL_S3"},
	{"AWS_STS_ENDPOINT", "AWS_ENDPOINT_URL_STS"},
}

func validateS3Terraform(s settings) hcl.Diagnostics {
	c := &s3TerraformCheck{s: s}
	c.required("bucket", s3NotEmpty)
	c.required("key", s3NotEmpty, s3Path, s3NoDoubleSlash)
	if v, _ := s.str("region"); v == "" && s.o.getenv("AWS_REGION") == "" && s.o.getenv("AWS_DEFAULT_REGION") == "" {
		c.diags = append(c.diags, s.errorAt("region", "Missing region value", `The "region" attribute or the "AWS_REGION" or "AWS_DEFAULT_REGION" environment variables must be set.`))
	}
	c.conflict("kms_key_id", "sse_customer_key")
	c.rules("workspace_key_prefix", s3Path)
	c.conflict("shared_credentials_file", "shared_credentials_files")
	c.deprecated("shared_credentials_file", "shared_credentials_files")
	c.deprecated("dynamodb_table", "use_lockfile")
	for _, e := range s3TerraformLegacyEndpoints {
		if s.attr(e.name) == cty.NilVal {
			continue
		}
		c.deprecated(e.name, "endpoints."+e.endpoint)
		if _, ok := s.nested("endpoints", e.endpoint); ok {
			c.diags = append(c.diags, s.wholeBody(hcl.DiagError, "Conflicting Parameters",
				fmt.Sprintf(`The parameters "%s" and "%s" cannot be configured together.`, e.name, "endpoints."+e.endpoint)))
		}
	}
	for _, e := range s3TerraformLegacyEndpoints {
		if v, ok := s.str(e.name); ok {
			if u, err := url.Parse(v); err != nil {
				c.diags = append(c.diags, s.errorAt(e.name, "Invalid Value", fmt.Sprintf("The value %q cannot be parsed as a URL: %s", v, err)))
			} else if u.Scheme == "" || u.Host == "" {
				c.diags = append(c.diags, s.diagAt(hcl.DiagWarning, e.name, "Complete URL Expected",
					fmt.Sprintf("The value should be a valid URL containing at least a scheme and hostname. Had %q.\nUsing an incomplete URL, such as a hostname only, may work, but may have unexpected behavior.", v)))
			}
		}
	}
	c.rules("ec2_metadata_service_endpoint", s3ValidURL)
	c.conflict("force_path_style", "use_path_style")
	c.deprecated("force_path_style", "use_path_style")
	c.rules("retry_mode", s3RetryMode)
	c.rules("ec2_metadata_service_endpoint_mode", s3OneOf("IPv4", "IPv6"))
	c.conflict("allowed_account_ids", "forbidden_account_ids")
	if c.diags.HasErrors() {
		return c.diags
	}

	if region, _ := s.str("region"); region != "" && !s.isTrue("skip_region_validation") {
		if err := awsvalidation.SupportedRegion(region); err != nil {
			return append(c.diags, s.errorAt("region", "Invalid region value", firstToUpper(err.Error())))
		}
	}
	if _, ok := s.str("kms_key_id"); ok && s.o.getenv("AWS_SSE_CUSTOMER_KEY") != "" {
		c.diags = append(c.diags, s.wholeBody(hcl.DiagError, "Invalid encryption configuration",
			`Only one of "kms_key_id" and the environment variable "AWS_SSE_CUSTOMER_KEY" can be set.`))
	}
	if k, ok := s.str("sse_customer_key"); ok {
		if len(k) != 44 {
			c.diags = append(c.diags, s.errorAt("sse_customer_key", "Invalid sse_customer_key value", "sse_customer_key must be 44 characters in length"))
		} else if _, err := base64.StdEncoding.DecodeString(k); err != nil {
			c.diags = append(c.diags, s.errorAt("sse_customer_key", "Invalid sse_customer_key value", fmt.Sprintf("sse_customer_key must be base64 encoded: %s", err)))
		}
	} else if k := s.o.getenv("AWS_SSE_CUSTOMER_KEY"); k != "" {
		if len(k) != 44 {
			c.diags = append(c.diags, s.wholeBody(hcl.DiagError, "Invalid AWS_SSE_CUSTOMER_KEY value", `The environment variable "AWS_SSE_CUSTOMER_KEY" must be 44 characters in length`))
		} else if _, err := base64.StdEncoding.DecodeString(k); err != nil {
			c.diags = append(c.diags, s.wholeBody(hcl.DiagError, "Invalid AWS_SSE_CUSTOMER_KEY value", fmt.Sprintf(`The environment variable "AWS_SSE_CUSTOMER_KEY" must be base64 encoded: %s`, err)))
		}
	}
	for _, e := range s3TerraformDeprecatedEnv {
		if s.o.getenv(e[0]) != "" {
			c.diags = append(c.diags, s.wholeBody(hcl.DiagWarning, "Deprecated Environment Variable",
				fmt.Sprintf(`The environment variable "%s" is deprecated. Use environment variable "%s" instead.`, e[0], e[1])))
		}
	}
	return c.diags
}

// firstToUpper is s with its first letter upper-case.
func firstToUpper(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && size <= 1 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}

// nested is a string attribute of an object argument (ok false when
// either is unset).
func (s settings) nested(name, attr string) (string, bool) {
	o := s.attr(name)
	if o == cty.NilVal || !o.Type().IsObjectType() || !o.Type().HasAttribute(attr) {
		return "", false
	}
	a := o.GetAttr(attr)
	if a.IsNull() || !a.IsKnown() || a.Type() != cty.String {
		return "", false
	}
	return a.AsString(), true
}
