package ops

import "github.com/prometheus/client_golang/prometheus"

// breakerMetrics show the circuit breaker in front of the shared rate-limit store.
type breakerMetrics struct {
	open        prometheus.Gauge
	transitions *prometheus.CounterVec
}

func newBreakerMetrics() breakerMetrics {
	m := breakerMetrics{
		open: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "radar_ratelimit_breaker_open",
			Help: "1 while the rate-limit store (Redis) is skipped after repeated failures and this replica counts in process, else 0.",
		}),
		transitions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "radar_ratelimit_breaker_transitions_total",
			Help: "Times the rate-limit store's circuit breaker opened or closed, by the state it went to.",
		}, []string{"to"}),
	}
	m.transitions.WithLabelValues("open")
	m.transitions.WithLabelValues("closed")
	return m
}

// BreakerChanged records that the rate-limit store's breaker opened or closed; it fits
// ratelimit.BreakerConfig.OnChange.
func (o *Ops) BreakerChanged(open bool) {
	if open {
		o.breaker.open.Set(1)
		o.breaker.transitions.WithLabelValues("open").Inc()
		return
	}
	o.breaker.open.Set(0)
	o.breaker.transitions.WithLabelValues("closed").Inc()
}
