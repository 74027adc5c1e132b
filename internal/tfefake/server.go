package tfefake

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// DefaultToken is the token a new Server accepts.
const DefaultToken = "tfefake-token"

// Server is the fake API, an http.Handler. Its exported fields may be
// changed before it serves.
type Server struct {
	// Token is the bearer token every API request must carry.
	Token string
	// APIVersion is sent in the ping's TFP-API-Version header ("2.6" by
	// default; the clients refuse a cloud block below 2.5).
	APIVersion string
	// AppName is sent in the ping's TFP-AppName header.
	AppName string
	// NewWorkspaceVersion is the terraform-version of a workspace the
	// fake creates (the clients then ask to change it to their own).
	NewWorkspaceVersion string
	// RefuseVersionUpdate makes a workspace update that sets a
	// terraform-version fail (422), as HCP Terraform does for a version it
	// does not offer.
	RefuseVersionUpdate bool
	// PageSize is the number of workspaces in a page of a list (20 by
	// default, HCP Terraform's).
	PageSize int

	mu       sync.Mutex
	orgs     map[string]*organization
	byID     map[string]*Workspace
	nextID   int
	requests []Request
	baseURL  string // https://HOST, for download links
}

// Request is one request the fake received.
type Request struct {
	Method string
	// Path is the request's path with its query, if any.
	Path string
	// Body is the request's body (first 64 KiB).
	Body string
}

// String is the request on one line: method, path and body (its
// surrounding space trimmed), if any.
func (r Request) String() string {
	body := strings.TrimSpace(r.Body)
	if body == "" {
		return r.Method + " " + r.Path
	}
	return r.Method + " " + r.Path + " " + body
}

type organization struct {
	name       string
	operations bool
	workspaces map[string]*Workspace
	projects   []*project
}

type project struct{ id, name string }

// Workspace is a workspace of the fake. Change it only through the
// Server's methods once the server runs.
type Workspace struct {
	ID               string
	Name             string
	TerraformVersion string
	// ExecutionMode is "remote" (the default), "local" or "agent".
	ExecutionMode string
	Tags          []string
	// TagBindings are key/value tags (Terraform's map form of tags).
	TagBindings map[string]string
	ProjectID   string
	// State is the current state's content; nil when there is none.
	State []byte

	org string
}

// New returns a server that knows the organizations named (with the
// operations entitlement) and no workspaces.
func New(orgs ...string) *Server {
	s := &Server{
		Token:               DefaultToken,
		APIVersion:          "2.6",
		AppName:             "HCP Terraform",
		NewWorkspaceVersion: "latest",
		PageSize:            20,
		orgs:                map[string]*organization{},
		byID:                map[string]*Workspace{},
	}
	for _, o := range orgs {
		s.AddOrganization(o, true)
	}
	return s
}

// AddOrganization adds (or replaces) an organization; operations is its
// remote-operations entitlement.
func (s *Server) AddOrganization(name string, operations bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.orgs[name] = &organization{name: name, operations: operations, workspaces: map[string]*Workspace{}}
}

// AddWorkspace adds a workspace to an existing organization; its ID is
// given by the fake and zero fields take defaults (terraform-version
// "latest", execution mode "remote").
func (s *Server) AddWorkspace(org string, w Workspace) (*Workspace, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.orgs[org]
	if o == nil {
		return nil, fmt.Errorf("tfefake: no organization %q", org)
	}
	if w.TerraformVersion == "" {
		w.TerraformVersion = "latest"
	}
	return s.addWorkspace(o, w), nil
}

func (s *Server) addWorkspace(o *organization, w Workspace) *Workspace {
	if w.ExecutionMode == "" {
		w.ExecutionMode = "remote"
	}
	s.nextID++
	w.ID = fmt.Sprintf("ws-%016d", s.nextID)
	w.org = o.name
	p := &w
	o.workspaces[w.Name] = p
	s.byID[w.ID] = p
	return p
}

// Workspace returns a copy of the named workspace, or false.
func (s *Server) Workspace(org, name string) (Workspace, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.orgs[org]
	if o == nil || o.workspaces[name] == nil {
		return Workspace{}, false
	}
	w := *o.workspaces[name]
	w.Tags = append([]string(nil), w.Tags...)
	return w, true
}

// WorkspaceNames lists an organization's workspaces, sorted.
func (s *Server) WorkspaceNames(org string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var names []string
	if o := s.orgs[org]; o != nil {
		for n := range o.workspaces {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// ResetRequests forgets the requests received so far.
func (s *Server) ResetRequests() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = nil
}

// maxBody bounds what the fake reads of a request body.
const maxBody = 64 << 10

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, maxBody))
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.RequestURI(), Body: string(body)})
	if s.baseURL == "" && r.Host != "" {
		s.baseURL = "https://" + r.Host
	}
	switch {
	case r.URL.Path == "/.well-known/terraform.json":
		s.discovery(w)
		return
	case strings.HasPrefix(r.URL.Path, "/_state/"):
		// State downloads are signed links in HCP Terraform, without the
		// bearer token.
		s.download(w, strings.TrimPrefix(r.URL.Path, "/_state/"))
		return
	case !strings.HasPrefix(r.URL.Path, apiPrefix):
		writeError(w, http.StatusNotFound)
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+s.Token {
		writeError(w, http.StatusUnauthorized)
		return
	}
	s.api(w, r, strings.Split(strings.Trim(strings.TrimPrefix(r.URL.Path, apiPrefix), "/"), "/"), body)
}

// apiPrefix is where discovery points the tfe.v2 services.
const apiPrefix = "/api/v2/"

func (s *Server) discovery(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]string{
		"tfe.v2":   apiPrefix,
		"tfe.v2.1": apiPrefix,
		"tfe.v2.2": apiPrefix,
		"state.v2": apiPrefix,
	})
}

// api routes a request under /api/v2/, split into segments.
func (s *Server) api(w http.ResponseWriter, r *http.Request, seg []string, body []byte) {
	get, post, patch := r.Method == http.MethodGet, r.Method == http.MethodPost, r.Method == http.MethodPatch
	switch {
	case len(seg) == 1 && seg[0] == "ping" && get:
		w.Header().Set("TFP-API-Version", s.APIVersion)
		if s.AppName != "" {
			w.Header().Set("TFP-AppName", s.AppName)
		}
		w.WriteHeader(http.StatusNoContent)
	case len(seg) >= 2 && seg[0] == "organizations":
		o := s.orgs[seg[1]]
		if o == nil {
			writeError(w, http.StatusNotFound)
			return
		}
		switch {
		case len(seg) == 2 && get:
			writeDoc(w, http.StatusOK, resource{ID: o.name, Type: "organizations", Attributes: map[string]any{"name": o.name}})
		case len(seg) == 3 && seg[2] == "entitlement-set" && get:
			writeDoc(w, http.StatusOK, resource{ID: "org-" + o.name, Type: "entitlement-sets", Attributes: map[string]any{
				"operations": o.operations, "state-storage": true, "private-module-registry": true,
			}})
		case len(seg) == 3 && seg[2] == "workspaces" && get:
			s.listWorkspaces(w, o, r.URL.Query())
		case len(seg) == 3 && seg[2] == "workspaces" && post:
			s.createWorkspace(w, o, body)
		case len(seg) == 4 && seg[2] == "workspaces" && get:
			if ws := o.workspaces[seg[3]]; ws != nil {
				writeDoc(w, http.StatusOK, s.workspaceResource(ws))
			} else {
				writeError(w, http.StatusNotFound)
			}
		case len(seg) == 3 && seg[2] == "projects" && get:
			s.listProjects(w, o, r.URL.Query())
		case len(seg) == 3 && seg[2] == "projects" && post:
			s.createProject(w, o, body)
		default:
			writeError(w, http.StatusNotFound)
		}
	case len(seg) >= 2 && seg[0] == "workspaces":
		ws := s.byID[seg[1]]
		if ws == nil {
			writeError(w, http.StatusNotFound)
			return
		}
		switch {
		case len(seg) == 2 && get:
			writeDoc(w, http.StatusOK, s.workspaceResource(ws))
		case len(seg) == 2 && patch:
			s.updateWorkspace(w, ws, body)
		case len(seg) == 4 && seg[2] == "relationships" && seg[3] == "tags" && post:
			s.addTags(w, ws, body)
		case len(seg) == 3 && (seg[2] == "tag-bindings" || seg[2] == "effective-tag-bindings") && get:
			writeList(w, tagBindingResources(ws, seg[2]), nil)
		case len(seg) == 3 && seg[2] == "tag-bindings" && patch:
			s.addTagBindings(w, ws, body)
		case len(seg) == 3 && seg[2] == "current-state-version" && get:
			s.currentState(w, ws)
		default:
			writeError(w, http.StatusNotFound)
		}
	default:
		writeError(w, http.StatusNotFound)
	}
}

// resource is a JSON:API resource object.
type resource struct {
	ID            string                  `json:"id"`
	Type          string                  `json:"type"`
	Attributes    map[string]any          `json:"attributes,omitempty"`
	Relationships map[string]relationship `json:"relationships,omitempty"`
}

type relationship struct {
	Data any `json:"data"`
}

type ref struct {
	ID   string `json:"id"`
	Type string `json:"type"`
}

func writeDoc(w http.ResponseWriter, status int, res resource) {
	w.Header().Set("Content-Type", "application/vnd.api+json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"data": res})
}

func writeList(w http.ResponseWriter, items []resource, meta any) {
	if items == nil {
		items = []resource{}
	}
	doc := map[string]any{"data": items}
	if meta != nil {
		doc["meta"] = meta
	}
	w.Header().Set("Content-Type", "application/vnd.api+json")
	w.WriteHeader(http.StatusOK)
	_ = json.NewEncoder(w).Encode(doc)
}

func writeError(w http.ResponseWriter, status int) {
	w.Header().Set("Content-Type", "application/vnd.api+json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"errors": []map[string]string{{
		"status": strconv.Itoa(status), "title": strings.ToLower(http.StatusText(status)),
	}}})
}

func (s *Server) workspaceResource(ws *Workspace) resource {
	tags := append([]string{}, ws.Tags...)
	rels := map[string]relationship{
		"organization": {Data: ref{ID: ws.org, Type: "organizations"}},
	}
	if ws.ProjectID != "" {
		rels["project"] = relationship{Data: ref{ID: ws.ProjectID, Type: "projects"}}
	}
	if ws.State != nil {
		rels["current-state-version"] = relationship{Data: ref{ID: stateVersionID(ws), Type: "state-versions"}}
	}
	return resource{ID: ws.ID, Type: "workspaces", Attributes: map[string]any{
		"name":              ws.Name,
		"terraform-version": ws.TerraformVersion,
		"execution-mode":    ws.ExecutionMode,
		"operations":        ws.ExecutionMode != "local",
		"locked":            false,
		"tag-names":         tags,
		"created-at":        fixedTime,
		"updated-at":        fixedTime,
		"actions":           map[string]bool{"is-destroyable": true},
		"permissions": map[string]bool{
			"can-update": true, "can-destroy": true, "can-queue-run": true, "can-read-state-versions": true,
			"can-create-state-versions": true, "can-lock": true, "can-unlock": true, "can-force-unlock": true,
		},
	}, Relationships: rels}
}

// fixedTime is the creation and update time of every object.
const fixedTime = "2026-01-01T00:00:00.000Z"

func stateVersionID(ws *Workspace) string { return "sv-" + strings.TrimPrefix(ws.ID, "ws-") }

// listWorkspaces answers a list, filtered as HCP Terraform filters:
// search[name] (substring), search[tags] (all of the comma-separated
// tags), filter[tagged][N][key|value] (all of the bindings) and
// filter[project][id]; paged by page[number] and page[size].
func (s *Server) listWorkspaces(w http.ResponseWriter, o *organization, q url.Values) {
	var tags []string
	if t := q.Get("search[tags]"); t != "" {
		tags = strings.Split(t, ",")
	}
	bindings := map[string]string{}
	for i := 0; ; i++ {
		k := fmt.Sprintf("filter[tagged][%d]", i)
		if !q.Has(k + "[key]") {
			break
		}
		bindings[q.Get(k+"[key]")] = q.Get(k + "[value]")
	}
	var match []*Workspace
	for _, ws := range o.workspaces {
		if strings.Contains(ws.Name, q.Get("search[name]")) && hasTags(ws, tags) && hasBindings(ws, bindings) &&
			(q.Get("filter[project][id]") == "" || q.Get("filter[project][id]") == ws.ProjectID) {
			match = append(match, ws)
		}
	}
	sort.Slice(match, func(i, j int) bool { return match[i].Name < match[j].Name })
	size := s.PageSize
	if n, err := strconv.Atoi(q.Get("page[size]")); err == nil && n > 0 && n < 100 {
		size = n
	}
	if size <= 0 {
		size = 20
	}
	page := 1
	if n, err := strconv.Atoi(q.Get("page[number]")); err == nil && n > 0 {
		page = n
	}
	total := (len(match) + size - 1) / size
	if total == 0 {
		total = 1
	}
	var items []resource
	for i := (page - 1) * size; i < len(match) && i < page*size; i++ {
		items = append(items, s.workspaceResource(match[i]))
	}
	pagination := map[string]any{
		"current-page": page, "total-pages": total, "total-count": len(match),
		"prev-page": nil, "next-page": nil,
	}
	if page > 1 {
		pagination["prev-page"] = page - 1
	}
	if page < total {
		pagination["next-page"] = page + 1
	}
	writeList(w, items, map[string]any{"pagination": pagination})
}

// hasTags reports whether the workspace has each tag, as a tag or as a
// tag binding's key (HCP Terraform searches both).
func hasTags(ws *Workspace, tags []string) bool {
	for _, t := range tags {
		_, found := ws.TagBindings[t]
		for _, have := range ws.Tags {
			found = found || have == t
		}
		if !found {
			return false
		}
	}
	return true
}

func hasBindings(ws *Workspace, want map[string]string) bool {
	for k, v := range want {
		have, ok := ws.TagBindings[k]
		if !ok || (v != "" && have != v) {
			return false
		}
	}
	return true
}

// request is the part of a JSON:API request document the fake reads.
type request struct {
	Data struct {
		Attributes    map[string]json.RawMessage `json:"attributes"`
		Relationships map[string]struct {
			Data json.RawMessage `json:"data"`
		} `json:"relationships"`
	} `json:"data"`
}

// relatedIDs and relatedNames read a to-one or to-many relationship's
// resource identifiers, or the names of its (inline) attributes.
func relatedRefs(raw json.RawMessage) []map[string]any {
	var many []map[string]any
	if err := json.Unmarshal(raw, &many); err == nil {
		return many
	}
	var one map[string]any
	if err := json.Unmarshal(raw, &one); err == nil && one != nil {
		return []map[string]any{one}
	}
	return nil
}

func attrString(m map[string]any, key string) string {
	if a, ok := m["attributes"].(map[string]any); ok {
		if v, ok := a[key].(string); ok {
			return v
		}
	}
	if v, ok := m[key].(string); ok {
		return v
	}
	return ""
}

func (s *Server) createWorkspace(w http.ResponseWriter, o *organization, body []byte) {
	req, name, ok := namedRequest(w, body)
	if !ok {
		return
	}
	if o.workspaces[name] != nil {
		writeError(w, http.StatusUnprocessableEntity)
		return
	}
	ws := Workspace{Name: name, TerraformVersion: s.NewWorkspaceVersion}
	if rel, ok := req.Data.Relationships["tags"]; ok {
		for _, t := range relatedRefs(rel.Data) {
			if n := attrString(t, "name"); n != "" {
				ws.Tags = append(ws.Tags, n)
			}
		}
	}
	if rel, ok := req.Data.Relationships["tag-bindings"]; ok {
		for _, t := range relatedRefs(rel.Data) {
			if ws.TagBindings == nil {
				ws.TagBindings = map[string]string{}
			}
			ws.TagBindings[attrString(t, "key")] = attrString(t, "value")
		}
	}
	if rel, ok := req.Data.Relationships["project"]; ok {
		for _, p := range relatedRefs(rel.Data) {
			if id, _ := p["id"].(string); id != "" {
				ws.ProjectID = id
			}
		}
	}
	writeDoc(w, http.StatusCreated, s.workspaceResource(s.addWorkspace(o, ws)))
}

func (s *Server) updateWorkspace(w http.ResponseWriter, ws *Workspace, body []byte) {
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest)
		return
	}
	if raw, ok := req.Data.Attributes["terraform-version"]; ok {
		if s.RefuseVersionUpdate {
			writeError(w, http.StatusUnprocessableEntity)
			return
		}
		_ = json.Unmarshal(raw, &ws.TerraformVersion)
	}
	if raw, ok := req.Data.Attributes["execution-mode"]; ok {
		_ = json.Unmarshal(raw, &ws.ExecutionMode)
	}
	writeDoc(w, http.StatusOK, s.workspaceResource(ws))
}

func (s *Server) addTags(w http.ResponseWriter, ws *Workspace, body []byte) {
	var doc struct {
		Data []map[string]any `json:"data"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		writeError(w, http.StatusBadRequest)
		return
	}
	for _, t := range doc.Data {
		if n := attrString(t, "name"); n != "" && !hasTags(ws, []string{n}) {
			ws.Tags = append(ws.Tags, n)
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) addTagBindings(w http.ResponseWriter, ws *Workspace, body []byte) {
	var doc struct {
		Data []map[string]any `json:"data"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		writeError(w, http.StatusBadRequest)
		return
	}
	if ws.TagBindings == nil {
		ws.TagBindings = map[string]string{}
	}
	for _, t := range doc.Data {
		ws.TagBindings[attrString(t, "key")] = attrString(t, "value")
	}
	writeList(w, tagBindingResources(ws, "tag-bindings"), nil)
}

func tagBindingResources(ws *Workspace, typ string) []resource {
	keys := make([]string, 0, len(ws.TagBindings))
	for k := range ws.TagBindings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []resource
	for i, k := range keys {
		out = append(out, resource{ID: fmt.Sprintf("tb-%s-%d", strings.TrimPrefix(ws.ID, "ws-"), i), Type: typ,
			Attributes: map[string]any{"key": k, "value": ws.TagBindings[k]}})
	}
	return out
}

func (s *Server) listProjects(w http.ResponseWriter, o *organization, q url.Values) {
	names := map[string]bool{}
	for _, n := range strings.Split(q.Get("filter[names]"), ",") {
		if n != "" {
			names[n] = true
		}
	}
	var items []resource
	for _, p := range o.projects {
		if len(names) == 0 || names[p.name] {
			items = append(items, resource{ID: p.id, Type: "projects", Attributes: map[string]any{"name": p.name}})
		}
	}
	writeList(w, items, map[string]any{"pagination": map[string]any{
		"current-page": 1, "total-pages": 1, "total-count": len(items), "prev-page": nil, "next-page": nil,
	}})
}

func (s *Server) createProject(w http.ResponseWriter, o *organization, body []byte) {
	_, name, ok := namedRequest(w, body)
	if !ok {
		return
	}
	s.nextID++
	p := &project{id: fmt.Sprintf("prj-%016d", s.nextID), name: name}
	o.projects = append(o.projects, p)
	writeDoc(w, http.StatusCreated, resource{ID: p.id, Type: "projects", Attributes: map[string]any{"name": p.name}})
}

// AddProject adds a project to an existing organization and returns its
// ID.
func (s *Server) AddProject(org, name string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.orgs[org]
	if o == nil {
		return "", fmt.Errorf("tfefake: no organization %q", org)
	}
	s.nextID++
	p := &project{id: fmt.Sprintf("prj-%016d", s.nextID), name: name}
	o.projects = append(o.projects, p)
	return p.id, nil
}

func (s *Server) currentState(w http.ResponseWriter, ws *Workspace) {
	if ws.State == nil {
		writeError(w, http.StatusNotFound)
		return
	}
	var head struct {
		Serial  int64  `json:"serial"`
		Lineage string `json:"lineage"`
	}
	_ = json.Unmarshal(ws.State, &head)
	writeDoc(w, http.StatusOK, resource{ID: stateVersionID(ws), Type: "state-versions", Attributes: map[string]any{
		"serial":                    head.Serial,
		"created-at":                fixedTime,
		"status":                    "finalized",
		"resources-processed":       true,
		"download-url":              "/_state/" + ws.ID,
		"hosted-state-download-url": s.baseURL + "/_state/" + ws.ID,
	}})
}

func (s *Server) download(w http.ResponseWriter, id string) {
	ws := s.byID[id]
	if ws == nil || ws.State == nil {
		writeError(w, http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(ws.State)
}

// SetState sets a workspace's current state.
func (s *Server) SetState(org, name string, state []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.orgs[org]
	if o == nil || o.workspaces[name] == nil {
		return fmt.Errorf("tfefake: no workspace %s/%s", org, name)
	}
	o.workspaces[name].State = append([]byte{}, state...)
	return nil
}

// namedRequest decodes a create request and its "name" attribute, answering
// 400 for a body that is not JSON and 422 for a missing name.
func namedRequest(w http.ResponseWriter, body []byte) (request, string, bool) {
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest)
		return req, "", false
	}
	var name string
	_ = json.Unmarshal(req.Data.Attributes["name"], &name)
	if name == "" {
		writeError(w, http.StatusUnprocessableEntity)
		return req, "", false
	}
	return req, name, true
}
