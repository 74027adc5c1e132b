package backend

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/container"
	"github.com/hashicorp/hcl/v2"
)

// The azurerm backend keeps the default workspace's state in blob key of
// a container, and workspace NAME's in blob KEY + "env:" + NAME. The
// container's address is https://ACCOUNT.blob.SUFFIX/CONTAINER, the
// suffix following environment (public, usgovernment, china) or the
// cloud described by metadata_host (fetched over HTTPS, as the products
// fetch it). Every call is bounded by timeout_seconds (default 300).
// Workspaces lists the blobs named KEY + "env:" + NAME; a state is read
// by downloading its blob (404: none).
//
// tfdeps authenticates with access_key (shared key) or sas_token only;
// the other methods (Entra ID, CLI, managed identity, OIDC) are refused
// with -backend-check, and the customer-provided key is not emulated.

const azureWorkspaceSep = "env:"

const azureNameRules = "See documentation here: https://learn.microsoft.com/en-us/azure/azure-resource-manager/management/resource-name-rules#microsoftstorage"

var (
	azureAccountName   = regexp.MustCompile(`^[0-9a-z]{3,24}$`)
	azureContainerName = regexp.MustCompile(`^[0-9a-z][0-9a-z\-]{1,61}[0-9a-z]$`)
)

type azureRemote struct {
	client  *container.Client
	key     string
	timeout time.Duration
}

func validateAzure(s settings) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, name := range []string{"container_name", "key", "storage_account_name"} {
		if s.string(name) == "" {
			diags = append(diags, sourceless(fmt.Sprintf("%q: required field is not set", name)))
		}
	}
	if diags.HasErrors() {
		return diags
	}
	if t := s.integer("timeout_seconds", "ARM_TIMEOUT_SECONDS", 300); t < 0 {
		return hcl.Diagnostics{sourceless("timeout_seconds expected to be a non-negative integer")}
	}
	account, cont := s.string("storage_account_name"), s.string("container_name")
	switch {
	case !azureAccountName.MatchString(account):
		return hcl.Diagnostics{sourceless("invalid storage account name: Azure requires a storage account name consists of 3-24 lowercase characters and numbers only. " + azureNameRules)}
	case !azureContainerName.MatchString(cont):
		return hcl.Diagnostics{sourceless("invalid storage container name: Azure requires a storage container name consists of 3-63 lowercase characters, numbers, and hyphens only. It cannot start or end with a hyphen. " + azureNameRules)}
	case strings.Contains(cont, "--"):
		return hcl.Diagnostics{sourceless("invalid storage container name: Hyphens in a storage container name must be nonconsecutive. " + azureNameRules)}
	}
	return nil
}

func openAzure(ctx context.Context, s settings) (remoteClient, hcl.Diagnostics) {
	if d := validateAzure(s); d.HasErrors() {
		return nil, d
	}
	r, err := azureClient(ctx, s)
	if err != nil {
		return nil, hcl.Diagnostics{errorDiag(err, s.o.Flavour)}
	}
	return r, nil
}

func azureClient(ctx context.Context, s settings) (*azureRemote, error) {
	r := &azureRemote{
		key:     s.string("key"),
		timeout: time.Duration(s.integer("timeout_seconds", "ARM_TIMEOUT_SECONDS", 300)) * time.Second,
	}
	hc := s.o.httpClient()
	cloudConfig, suffix, err := azureCloud(ctx, hc, s.string("environment", "ARM_ENVIRONMENT"), s.string("metadata_host", "ARM_METADATA_HOST"))
	if err != nil {
		return nil, err
	}
	url := fmt.Sprintf("https://%s.blob.%s/%s", s.string("storage_account_name"), suffix, s.string("container_name"))
	opts := &container.ClientOptions{ClientOptions: policy.ClientOptions{
		Telemetry: policy.TelemetryOptions{Disabled: true},
		Transport: hc,
		Cloud:     cloudConfig,
	}}
	if key := s.string("access_key", "ARM_ACCESS_KEY"); key != "" {
		cred, err := container.NewSharedKeyCredential(s.string("storage_account_name"), key)
		if err != nil {
			return nil, fmt.Errorf("error creating credential from shared access key: %w", err)
		}
		if r.client, err = container.NewClientWithSharedKeyCredential(url, cred, opts); err != nil {
			return nil, fmt.Errorf("error obtaining container client from access key: %w", err)
		}
		return r, nil
	}
	if sas := s.string("sas_token", "ARM_SAS_TOKEN"); sas != "" {
		if r.client, err = container.NewClientWithNoCredential(url+"?"+sas, opts); err != nil {
			return nil, err
		}
		return r, nil
	}
	return nil, &UnsupportedCredentialsError{Type: "azurerm", Supported: "access_key or sas_token (or ARM_ACCESS_KEY, ARM_SAS_TOKEN)"}
}

// azureCloud is the cloud configuration and storage suffix of an
// environment, or of the cloud a metadata host describes.
func azureCloud(ctx context.Context, hc *http.Client, environment, metadataHost string) (cloud.Configuration, string, error) {
	if metadataHost != "" {
		return azureMetadata(ctx, hc, metadataHost)
	}
	switch environment {
	case "", "public", "global", "canary":
		return cloud.AzurePublic, "core.windows.net", nil
	case "usgovernment", "usgovernmentl4", "dod", "usgovernmentl5":
		return cloud.AzureGovernment, "core.usgovcloudapi.net", nil
	case "china":
		return cloud.AzureChina, "core.chinacloudapi.cn", nil
	}
	return cloud.Configuration{}, "", fmt.Errorf("unknown environment identifier: %s", environment)
}

// maxMetadataSize bounds a metadata host's answer.
const maxMetadataSize = 1 << 20

func azureMetadata(ctx context.Context, hc *http.Client, host string) (cloud.Configuration, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("https://%s/metadata/endpoints?api-version=2023-11-01", host), nil)
	if err != nil {
		return cloud.Configuration{}, "", fmt.Errorf("retrieving environments from Azure MetaData service: %w", err)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return cloud.Configuration{}, "", fmt.Errorf("retrieving environments from Azure MetaData service: %w", err)
	}
	defer resp.Body.Close()
	var env struct {
		Authentication struct {
			LoginEndpoint string   `json:"loginEndpoint"`
			Audiences     []string `json:"audiences"`
		} `json:"authentication"`
		ResourceManager string            `json:"resourceManager"`
		Suffixes        map[string]string `json:"suffixes"`
	}
	body, err := readAllMax(resp.Body)
	if err == nil {
		err = json.Unmarshal(body, &env)
	}
	if err != nil {
		return cloud.Configuration{}, "", fmt.Errorf("decoding json in metadata response: %w", err)
	}
	suffix, ok := env.Suffixes["storage"]
	if !ok {
		return cloud.Configuration{}, "", errors.New("could not find storage endpoint in given metadata host")
	}
	if len(env.Authentication.Audiences) == 0 {
		return cloud.Configuration{}, "", errors.New("could not find token audience in given metadata host")
	}
	audience := env.Authentication.Audiences[0]
	return cloud.Configuration{
		ActiveDirectoryAuthorityHost: env.Authentication.LoginEndpoint,
		Services: map[cloud.ServiceName]cloud.ServiceConfiguration{
			cloud.ResourceManager: {Endpoint: env.ResourceManager, Audience: audience},
			"storage":             {Endpoint: suffix, Audience: audience},
		},
	}, suffix, nil
}

func (r *azureRemote) workspaces(ctx context.Context) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	prefix := r.key + azureWorkspaceSep
	marker := ""
	pages := r.client.NewListBlobsFlatPager(&container.ListBlobsFlatOptions{Prefix: &prefix, Marker: &marker})
	list := []string{"default"}
	for pages.More() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("error listing blobs: %w", err)
		}
		for _, b := range page.Segment.BlobItems {
			if b.Name == nil {
				continue
			}
			name, ok := strings.CutPrefix(*b.Name, prefix)
			if !ok || strings.Contains(name, "/") {
				continue
			}
			list = append(list, name)
		}
	}
	sort.Strings(list[1:])
	return list, nil
}

func (r *azureRemote) readState(ctx context.Context, workspace string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	name := r.key
	if workspace != "default" {
		name = r.key + azureWorkspaceSep + workspace
	}
	resp, err := r.client.NewBlockBlobClient(name).DownloadStream(ctx, &blob.DownloadStreamOptions{})
	if err != nil {
		var re *azcore.ResponseError
		if errors.As(err, &re) && re.StatusCode == http.StatusNotFound {
			return nil, nil
		}
		return nil, fmt.Errorf("error downloading azure blob: %w", err)
	}
	defer resp.Body.Close()
	b, err := readAllMax(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("error reading azure blob: %w", err)
	}
	return b, nil
}
