package adam

import (
	"math"
	"testing"
)

// TestStepFindsTheMinimum minimises (w0-3)² + (w1+1)², whose minimum is at (3, -1).
func TestStepFindsTheMinimum(t *testing.T) {
	w := []float64{0, 0}
	g := make([]float64, 2)
	o := New(len(w), 0.1)
	for range 2000 {
		g[0], g[1] = 2*(w[0]-3), 2*(w[1]+1)
		o.Step(w, g)
	}
	if math.Abs(w[0]-3) > 1e-3 || math.Abs(w[1]+1) > 1e-3 {
		t.Errorf("weights after 2,000 steps = %v, want (3, -1)", w)
	}
}

// TestFirstStepIsTheRate checks the bias correction: the first step moves each weight by the rate, whatever
// the size of its gradient.
func TestFirstStepIsTheRate(t *testing.T) {
	w := []float64{1, 1}
	New(2, 0.05).Step(w, []float64{100, -0.001})
	if math.Abs(w[0]-0.95) > 1e-6 || math.Abs(w[1]-1.05) > 1e-6 {
		t.Errorf("weights after one step = %v, want (0.95, 1.05)", w)
	}
}
