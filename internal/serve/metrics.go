package serve

import (
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the server's Prometheus collectors, in a registry of its own.
type metrics struct {
	reg            *prometheus.Registry
	requests       *prometheus.CounterVec
	duration       *prometheus.HistogramVec
	bytes          *prometheus.CounterVec
	cache          *prometheus.CounterVec
	upstreamErrors *prometheus.CounterVec
	// upstreamFailures counts failed tries of upstream requests, retried
	// or not, by reason (429, 5xx, connection).
	upstreamFailures *prometheus.CounterVec
	upstreamFetch    prometheus.Histogram
	upstreamBytes    prometheus.Counter
	inflight         prometheus.Gauge
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tfdeps_serve_requests_total", Help: "HTTP requests by route and status code.",
		}, []string{"route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "tfdeps_serve_request_duration_seconds", Help: "HTTP request latency by route.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 4, 10),
		}, []string{"route"}),
		bytes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tfdeps_serve_response_bytes_total", Help: "Response body bytes by route.",
		}, []string{"route"}),
		cache: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tfdeps_serve_cache_total", Help: "Mirror lookups answered from storage (hit) or filled from upstream (miss), by kind.",
		}, []string{"kind", "result"}),
		upstreamErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tfdeps_serve_upstream_errors_total", Help: "Failed upstream operations by kind.",
		}, []string{"kind"}),
		upstreamFailures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tfdeps_serve_upstream_failed_tries_total", Help: "Upstream HTTP tries that failed with 429, 5xx or a broken connection (each retry counted), by reason.",
		}, []string{"reason"}),
		upstreamFetch: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "tfdeps_serve_upstream_download_seconds", Help: "Duration of upstream archive downloads, authentication and storing included.",
			Buckets: prometheus.ExponentialBuckets(0.01, 4, 9),
		}),
		upstreamBytes: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "tfdeps_serve_upstream_download_bytes_total", Help: "Bytes of archives downloaded from upstream.",
		}),
		inflight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "tfdeps_serve_upstream_downloads_in_flight", Help: "Upstream archive downloads running.",
		}),
	}
	m.zero()
	m.reg.MustRegister(m.requests, m.duration, m.bytes, m.cache, m.upstreamErrors, m.upstreamFailures, m.upstreamFetch, m.upstreamBytes, m.inflight,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Label values known in advance: their series exist, at zero, from the
// start, so that dashboards and alerts see them before the first event.
var (
	mirrorRoutes   = []string{"mirror_index", "mirror_version", "mirror_archive"}
	cacheResults   = [][2]string{{"versions", "hit"}, {"versions", "miss"}, {"versions", "stale"}, {"platforms", "hit"}, {"platforms", "miss"}, {"version_hashes", "miss"}, {"archive", "hit"}, {"archive", "miss"}}
	upstreamKinds  = []string{"versions", "platforms", "archive", "import"}
	failureReasons = []string{"429", "5xx", "connection", "timeout"}
)

// zero creates the series of known label values.
func (m *metrics) zero() {
	for _, r := range mirrorRoutes {
		m.requests.WithLabelValues(r, "200")
		m.duration.WithLabelValues(r)
		m.bytes.WithLabelValues(r)
	}
	for _, c := range cacheResults {
		m.cache.WithLabelValues(c[0], c[1])
	}
	for _, k := range upstreamKinds {
		m.upstreamErrors.WithLabelValues(k)
	}
	for _, r := range failureReasons {
		m.upstreamFailures.WithLabelValues(r)
	}
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// recorder captures what the access log and metrics need.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
	route  string
}

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(p []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(p)
	r.bytes += int64(n)
	return n, err
}

// ReadFrom keeps the connection's sendfile path for file bodies.
func (r *recorder) ReadFrom(src io.Reader) (int64, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	rf, ok := r.ResponseWriter.(io.ReaderFrom)
	if !ok {
		return io.Copy(struct{ io.Writer }{r}, src)
	}
	n, err := rf.ReadFrom(src)
	r.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach the connection.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// setRoute names the route of a request for logs and metrics.
func setRoute(w http.ResponseWriter, name string) {
	if rec, ok := w.(*recorder); ok {
		rec.route = name
	}
}

// observe logs every request and updates the request metrics.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &recorder{ResponseWriter: w, route: "unknown"}
		next.ServeHTTP(rec, r)
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		elapsed := time.Since(start)
		s.metrics.requests.WithLabelValues(rec.route, strconv.Itoa(rec.status)).Inc()
		s.metrics.duration.WithLabelValues(rec.route).Observe(elapsed.Seconds())
		s.metrics.bytes.WithLabelValues(rec.route).Add(float64(rec.bytes))
		s.log.LogAttrs(r.Context(), slog.LevelInfo, "request",
			slog.String("method", r.Method),
			slog.String("path", r.URL.EscapedPath()),
			slog.String("route", rec.route),
			slog.Int("status", rec.status),
			slog.Int64("bytes", rec.bytes),
			slog.Duration("duration", elapsed),
			slog.String("remote", clientIP(r)),
			slog.String("user_agent", r.UserAgent()),
		)
	})
}
