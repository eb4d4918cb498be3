package batch_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"radar/internal/batch"
)

// Concurrent callers each get the answer to their own question, and while a batch runs the others queue: the
// work goes out in fewer calls than there were callers.
func TestConcurrentCallsShareBatches(t *testing.T) {
	var calls, largest atomic.Int64
	release := make(chan struct{})
	b := batch.New(func(ctx context.Context, qs []int) ([]int, error) {
		if calls.Add(1) == 1 {
			<-release // hold the first batch so that the others queue behind it
		}
		if n := int64(len(qs)); n > largest.Load() {
			largest.Store(n)
		}
		out := make([]int, len(qs))
		for i, q := range qs {
			out[i] = q * q
		}
		return out, nil
	}, batch.Config{InFlight: 1, MaxSize: 64})

	const callers = 200
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() {
			got, err := b.Do(context.Background(), i)
			if err != nil || got != i*i {
				t.Errorf("Do(%d) = %d, %v; want %d", i, got, err, i*i)
			}
		})
	}
	time.Sleep(50 * time.Millisecond)
	close(release)
	wg.Wait()
	if n := calls.Load(); n >= callers {
		t.Errorf("%d batches for %d callers: nothing was batched", n, callers)
	}
	if largest.Load() > 64 {
		t.Errorf("a batch of %d calls, over MaxSize 64", largest.Load())
	}
}

// A failing batch fails every call in it; the next batch is unaffected.
func TestAFailedBatchFailsItsCalls(t *testing.T) {
	boom := errors.New("server gone")
	fail := atomic.Bool{}
	b := batch.New(func(ctx context.Context, qs []string) ([]string, error) {
		if fail.Load() {
			return nil, boom
		}
		return qs, nil
	}, batch.Config{})
	fail.Store(true)
	if _, err := b.Do(context.Background(), "a"); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want %v", err, boom)
	}
	fail.Store(false)
	if got, err := b.Do(context.Background(), "b"); err != nil || got != "b" {
		t.Fatalf("after a failure: %q, %v", got, err)
	}
}

// A batch that answers fewer questions than it was asked fails the unanswered calls instead of answering them
// with zero values.
func TestShortAnswerIsAnError(t *testing.T) {
	b := batch.New(func(ctx context.Context, qs []int) ([]int, error) { return nil, nil }, batch.Config{})
	if _, err := b.Do(context.Background(), 1); err == nil {
		t.Fatal("no error for an unanswered call")
	}
}

// A caller whose context ends stops waiting at once; the batch runs on for the other callers, bounded by the
// latest of their deadlines.
func TestCallerDeadlines(t *testing.T) {
	started := make(chan struct{})
	var deadline time.Time
	b := batch.New(func(ctx context.Context, qs []int) ([]int, error) {
		deadline, _ = ctx.Deadline()
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	}, batch.Config{Timeout: time.Hour})

	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	done := make(chan error)
	go func() {
		_, err := b.Do(ctx, 1)
		done <- err
	}()
	<-started
	if want, _ := ctx.Deadline(); !deadline.Equal(want) {
		t.Errorf("batch deadline %v, want the caller's %v", deadline, want)
	}
	if err := <-done; !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want deadline exceeded", err)
	}

	// Cancelled while its batch is still running: the caller returns with its own error.
	hold := make(chan struct{})
	b2 := batch.New(func(ctx context.Context, qs []int) ([]int, error) {
		<-hold
		return qs, nil
	}, batch.Config{InFlight: 1})
	go b2.Do(context.Background(), 0) // runs the first batch and holds it
	time.Sleep(20 * time.Millisecond)
	cctx, ccancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(20 * time.Millisecond)
		ccancel()
	}()
	if _, err := b2.Do(cctx, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want canceled", err)
	}
	close(hold)
	if got, err := b2.Do(context.Background(), 7); err != nil || got != 7 {
		t.Errorf("after a cancelled caller: %d, %v", got, err)
	}
}

// With several batches in flight every call is answered once, with its own answer.
func TestSeveralBatchesInFlight(t *testing.T) {
	b := batch.New(func(ctx context.Context, qs []int) ([]int, error) {
		time.Sleep(time.Millisecond)
		return qs, nil
	}, batch.Config{InFlight: 3, MaxSize: 8})
	var wg sync.WaitGroup
	for i := range 500 {
		wg.Go(func() {
			if got, err := b.Do(context.Background(), i); err != nil || got != i {
				t.Errorf("Do(%d) = %d, %v", i, got, err)
			}
		})
	}
	wg.Wait()
}

// Callers that gave up while a batch hung are not sent in the next batch: a hanging server does not pile up
// work that nobody waits for.
func TestCallersThatGaveUpAreNotSent(t *testing.T) {
	hold := make(chan struct{})
	var sent atomic.Int64
	b := batch.New(func(ctx context.Context, qs []int) ([]int, error) {
		if qs[0] == 0 {
			<-hold
		} else {
			sent.Add(int64(len(qs)))
		}
		return qs, nil
	}, batch.Config{InFlight: 1, MaxSize: 1000})
	first := make(chan struct{})
	go func() {
		b.Do(context.Background(), 0)
		close(first)
	}()
	time.Sleep(20 * time.Millisecond)
	var wg sync.WaitGroup
	for i := 1; i <= 50; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
		wg.Go(func() {
			defer cancel()
			if _, err := b.Do(ctx, i); !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("Do(%d) while the server hangs: err = %v, want deadline exceeded", i, err)
			}
		})
	}
	wg.Wait()
	close(hold)
	<-first
	if got, err := b.Do(context.Background(), 99); err != nil || got != 99 {
		t.Fatalf("after the hang: %d, %v", got, err)
	}
	if n := sent.Load(); n != 1 {
		t.Errorf("%d calls sent after the hang, want only the live one", n)
	}
}
