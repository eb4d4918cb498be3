// Package adam is the Adam optimiser (Kingma and Ba, 2015) that trains the models embedded in Radar: the
// analyser's item model and the lead finder's pair model, both fitted by full-batch gradient steps.
package adam

import "math"

// The usual decay rates of the moment estimates, and the term that keeps a step finite.
const (
	beta1 = 0.9
	beta2 = 0.999
	eps   = 1e-8
)

// Optimizer keeps the moment estimates of n weights between steps.
type Optimizer struct {
	rate   float64
	m1, m2 []float64
	t      int
}

// New returns an optimiser of n weights that takes steps of size rate.
func New(n int, rate float64) *Optimizer {
	return &Optimizer{rate: rate, m1: make([]float64, n), m2: make([]float64, n)}
}

// Step moves the weights w against their gradient g.
func (o *Optimizer) Step(w, g []float64) {
	o.t++
	b1 := 1 - math.Pow(beta1, float64(o.t))
	b2 := 1 - math.Pow(beta2, float64(o.t))
	for k := range w {
		o.m1[k] = beta1*o.m1[k] + (1-beta1)*g[k]
		o.m2[k] = beta2*o.m2[k] + (1-beta2)*g[k]*g[k]
		w[k] -= o.rate * (o.m1[k] / b1) / (math.Sqrt(o.m2[k]/b2) + eps)
	}
}
