package cloudfake

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
)

// Azure speaks the subset of Azure Blob Storage that reading a state
// needs — listing a container's blobs by prefix and downloading a blob —
// for the accounts ACCOUNT.blob.Domain, and answers Azure's metadata
// endpoint at metadata.Domain with a cloud whose storage suffix is
// Domain. Requests are not authenticated. Containers live in memory,
// keyed "ACCOUNT/CONTAINER".
type Azure struct {
	mu         sync.Mutex
	containers map[string]map[string][]byte
}

// NewAzure is a blob service holding the given empty containers
// ("ACCOUNT/CONTAINER").
func NewAzure(containers ...string) *Azure {
	a := &Azure{containers: map[string]map[string][]byte{}}
	for _, c := range containers {
		a.containers[c] = map[string][]byte{}
	}
	return a
}

// Put stores a blob in container "ACCOUNT/CONTAINER".
func (a *Azure) Put(container, name, content string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.containers[container][name] = []byte(content)
}

func (a *Azure) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host := r.Host
	if h, _, ok := strings.Cut(host, ":"); ok {
		host = h
	}
	if host == "metadata."+Domain {
		json.NewEncoder(w).Encode(map[string]any{
			"authentication":  map[string]any{"loginEndpoint": "https://login." + Domain + "/", "audiences": []string{"https://management." + Domain + "/"}},
			"resourceManager": "https://management." + Domain + "/",
			"suffixes":        map[string]string{"storage": Domain},
		})
		return
	}
	account, ok := strings.CutSuffix(host, ".blob."+Domain)
	if !ok {
		http.NotFound(w, r)
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	cont, escaped, _ := strings.Cut(strings.TrimPrefix(r.URL.EscapedPath(), "/"), "/")
	blobs, ok := a.containers[account+"/"+cont]
	if !ok {
		azureError(w, http.StatusNotFound, "ContainerNotFound", "The specified container does not exist.")
		return
	}
	if escaped == "" && r.URL.Query().Get("comp") == "list" {
		a.list(w, r, cont, blobs)
		return
	}
	name, err := url.PathUnescape(escaped)
	data, found := blobs[name]
	if err != nil || !found || r.Method != http.MethodGet {
		azureError(w, http.StatusNotFound, "BlobNotFound", "The specified blob does not exist.")
		return
	}
	w.Header().Set("Content-Length", fmt.Sprint(len(data)))
	w.Header().Set("x-ms-blob-type", "BlockBlob")
	w.Header().Set("ETag", `"0x1"`)
	w.Header().Set("Last-Modified", "Mon, 02 Jan 2006 15:04:05 GMT")
	w.Write(data)
}

func (a *Azure) list(w http.ResponseWriter, r *http.Request, cont string, blobs map[string][]byte) {
	type props struct {
		ContentLength int    `xml:"Content-Length"`
		BlobType      string `xml:"BlobType"`
	}
	type item struct {
		Name       string `xml:"Name"`
		Properties props  `xml:"Properties"`
	}
	prefix := r.URL.Query().Get("prefix")
	var names []string
	for n := range blobs {
		if strings.HasPrefix(n, prefix) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	out := struct {
		XMLName    xml.Name `xml:"EnumerationResults"`
		Container  string   `xml:"ContainerName,attr"`
		Prefix     string   `xml:"Prefix"`
		Blobs      []item   `xml:"Blobs>Blob"`
		NextMarker string   `xml:"NextMarker"`
	}{Container: cont, Prefix: prefix}
	for _, n := range names {
		out.Blobs = append(out.Blobs, item{Name: n, Properties: props{ContentLength: len(blobs[n]), BlobType: "BlockBlob"}})
	}
	w.Header().Set("Content-Type", "application/xml")
	fmt.Fprint(w, xml.Header)
	xml.NewEncoder(w).Encode(out)
}

func azureError(w http.ResponseWriter, code int, errCode, msg string) {
	w.Header().Set("x-ms-error-code", errCode)
	w.Header().Set("Content-Type", "application/xml")
	w.WriteHeader(code)
	fmt.Fprintf(w, "%s<Error><Code>%s</Code><Message>%s</Message></Error>", xml.Header, errCode, msg)
}
