package tfefake

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestAPI walks the requests an init makes, over HTTPS, and checks the
// status and the parts of each answer the clients read.
func TestAPI(t *testing.T) {
	s := New("acme")
	if _, err := s.AddWorkspace("acme", Workspace{Name: "app-blue", Tags: []string{"app", "blue"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddWorkspace("acme", Workspace{Name: "app-green", Tags: []string{"app"}, TagBindings: map[string]string{"env": "prod"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddWorkspace("nope", Workspace{Name: "x"}); err == nil {
		t.Fatal("AddWorkspace to an unknown organization: no error")
	}
	r, err := s.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	c := r.Client()

	tests := []struct {
		name, method, path, body, token string
		status                          int
		// want are substrings of the answer (headers as "Key: value").
		want []string
	}{
		{name: "discovery", method: "GET", path: "/.well-known/terraform.json", token: "-", status: 200, want: []string{`"tfe.v2":"/api/v2/"`, `"tfe.v2.1":"/api/v2/"`}},
		{name: "ping", method: "GET", path: "/api/v2/ping", status: 204, want: []string{"Tfp-Api-Version: 2.6", "Tfp-Appname: HCP Terraform"}},
		{name: "no token", method: "GET", path: "/api/v2/ping", token: "-", status: 401},
		{name: "wrong token", method: "GET", path: "/api/v2/ping", token: "other", status: 401},
		{name: "entitlements", method: "GET", path: "/api/v2/organizations/acme/entitlement-set", status: 200, want: []string{`"type":"entitlement-sets"`, `"operations":true`}},
		{name: "unknown organization", method: "GET", path: "/api/v2/organizations/other/entitlement-set", status: 404, want: []string{`"status":"404"`}},
		{name: "read", method: "GET", path: "/api/v2/organizations/acme/workspaces/app-blue", status: 200, want: []string{`"id":"ws-0000000000000001"`, `"terraform-version":"latest"`, `"tag-names":["app","blue"]`}},
		{name: "read missing", method: "GET", path: "/api/v2/organizations/acme/workspaces/app", status: 404},
		{name: "list by prefix", method: "GET", path: "/api/v2/organizations/acme/workspaces?search%5Bname%5D=app-", status: 200, want: []string{`"app-blue"`, `"app-green"`, `"total-count":2`}},
		{name: "list by tags", method: "GET", path: "/api/v2/organizations/acme/workspaces?search%5Btags%5D=app%2Cblue", status: 200, want: []string{`"app-blue"`, `"total-count":1`}},
		{name: "list by a binding's key", method: "GET", path: "/api/v2/organizations/acme/workspaces?search%5Btags%5D=env", status: 200, want: []string{`"app-green"`, `"total-count":1`}},
		{name: "list by binding", method: "GET", path: "/api/v2/organizations/acme/workspaces?filter%5Btagged%5D%5B0%5D%5Bkey%5D=env&filter%5Btagged%5D%5B0%5D%5Bvalue%5D=prod", status: 200, want: []string{`"app-green"`, `"total-count":1`}},
		{name: "list paged", method: "GET", path: "/api/v2/organizations/acme/workspaces?page%5Bnumber%5D=2&page%5Bsize%5D=1", status: 200, want: []string{`"app-green"`, `"current-page":2`, `"prev-page":1`, `"next-page":null`, `"total-pages":2`}},
		{name: "create", method: "POST", path: "/api/v2/organizations/acme/workspaces", body: `{"data":{"type":"workspaces","attributes":{"name":"app"},"relationships":{"tags":{"data":[{"type":"tags","attributes":{"name":"t1"}}]}}}}`, status: 201, want: []string{`"id":"ws-0000000000000003"`, `"tag-names":["t1"]`}},
		{name: "create again", method: "POST", path: "/api/v2/organizations/acme/workspaces", body: `{"data":{"type":"workspaces","attributes":{"name":"app"}}}`, status: 422},
		{name: "update version", method: "PATCH", path: "/api/v2/workspaces/ws-0000000000000003", body: `{"data":{"type":"workspaces","attributes":{"terraform-version":"1.12.6"}}}`, status: 200, want: []string{`"terraform-version":"1.12.6"`}},
		{name: "add tags", method: "POST", path: "/api/v2/workspaces/ws-0000000000000003/relationships/tags", body: `{"data":[{"type":"tags","attributes":{"name":"t2"}}]}`, status: 204},
		{name: "tags added", method: "GET", path: "/api/v2/workspaces/ws-0000000000000003", status: 200, want: []string{`"tag-names":["t1","t2"]`}},
		{name: "tag bindings", method: "PATCH", path: "/api/v2/workspaces/ws-0000000000000003/tag-bindings", body: `{"data":[{"type":"tag-bindings","attributes":{"key":"env","value":"dev"}}]}`, status: 200, want: []string{`"key":"env"`, `"value":"dev"`}},
		{name: "no state", method: "GET", path: "/api/v2/workspaces/ws-0000000000000003/current-state-version", status: 404},
		{name: "projects", method: "POST", path: "/api/v2/organizations/acme/projects", body: `{"data":{"type":"projects","attributes":{"name":"p"}}}`, status: 201, want: []string{`"name":"p"`}},
		{name: "project list", method: "GET", path: "/api/v2/organizations/acme/projects?filter%5Bnames%5D=p", status: 200, want: []string{`"name":"p"`, `"total-count":1`}},
		{name: "unknown path", method: "GET", path: "/api/v2/runs/run-1", status: 404},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, r.URL+tt.path, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			switch tt.token {
			case "":
				req.Header.Set("Authorization", "Bearer "+DefaultToken)
			case "-":
			default:
				req.Header.Set("Authorization", "Bearer "+tt.token)
			}
			resp, err := c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			var got strings.Builder
			for k, v := range resp.Header {
				got.WriteString(k + ": " + strings.Join(v, ",") + "\n")
			}
			got.Write(b)
			if resp.StatusCode != tt.status {
				t.Errorf("status %d, want %d\n%s", resp.StatusCode, tt.status, got.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(got.String(), w) {
					t.Errorf("answer lacks %s:\n%s", w, got.String())
				}
			}
		})
	}
	if n := len(s.Requests()); n != len(tests) {
		t.Errorf("%d requests logged, want %d", n, len(tests))
	}
}

// TestState serves a workspace's state through its current state version.
func TestState(t *testing.T) {
	s := New("acme")
	if _, err := s.AddWorkspace("acme", Workspace{Name: "w"}); err != nil {
		t.Fatal(err)
	}
	state := `{"version":4,"serial":3,"lineage":"l"}`
	if err := s.SetState("acme", "w", []byte(state)); err != nil {
		t.Fatal(err)
	}
	if err := s.SetState("acme", "nope", nil); err == nil {
		t.Fatal("SetState on an unknown workspace: no error")
	}
	r, err := s.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	req, _ := http.NewRequest("GET", r.APIURL+"workspaces/ws-0000000000000001/current-state-version", nil)
	req.Header.Set("Authorization", "Bearer "+DefaultToken)
	resp, err := r.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Data struct {
			Attributes struct {
				Serial int    `json:"serial"`
				URL    string `json:"hosted-state-download-url"`
			} `json:"attributes"`
		} `json:"data"`
	}
	err = json.NewDecoder(resp.Body).Decode(&doc)
	resp.Body.Close()
	if err != nil || doc.Data.Attributes.Serial != 3 || !strings.HasPrefix(doc.Data.Attributes.URL, r.URL+"/") {
		t.Fatalf("state version %+v, %v", doc, err)
	}
	resp, err = r.Client().Get(doc.Data.Attributes.URL)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != state {
		t.Fatalf("downloaded %q, want %q", b, state)
	}
}
