package serve

import "net/http"

func (s *Server) servePublish(w http.ResponseWriter, r *http.Request, segs []string) {
	http.NotFound(w, r)
}
func (s *Server) serveProviderRegistry(w http.ResponseWriter, r *http.Request, segs []string) {
	http.NotFound(w, r)
}
func (s *Server) serveModuleRegistry(w http.ResponseWriter, r *http.Request, segs []string) {
	http.NotFound(w, r)
}
