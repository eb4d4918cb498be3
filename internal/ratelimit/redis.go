package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"radar/internal/batch"
)

// Redis is a Store shared by replicas; it needs Redis 7.0 or later for EXPIRE NX. Concurrent counts go out
// together: one pipeline carries the INCRBY and EXPIRE NX of every request waiting at that moment.
type Redis struct {
	client *redis.Client
	incrs  *batch.Batcher[incr, int64]
}

type incr struct {
	key string
	n   int64
	ttl time.Duration
}

// NewRedis returns a Store on client. The client should honour context deadlines
// (ContextTimeoutEnabled, as ParseRedisURL sets it) so the Limiter's timeout bounds every call.
func NewRedis(client *redis.Client) *Redis {
	r := &Redis{client: client}
	r.incrs = batch.New(r.incrBatch, batch.Config{InFlight: 1, MaxSize: 256, Timeout: time.Second})
	return r
}

// ParseRedisURL parses a redis:// or rediss:// URL into client options for a counter store: the URL's
// settings, context deadlines honoured on every call, and a single dial attempt per call so an unreachable
// Redis fails fast instead of spending the Limiter's timeout on dial retries.
func ParseRedisURL(rawURL string) (*redis.Options, error) {
	opts, err := redis.ParseURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("parse redis url: %w", err)
	}
	opts.ContextTimeoutEnabled = true
	opts.DialerRetries = 1
	return opts, nil
}

// Incr implements Store with INCRBY and EXPIRE NX, sent in one round trip with the other counts of the moment.
func (r *Redis) Incr(ctx context.Context, key string, n int64, ttl time.Duration) (int64, error) {
	n, err := r.incrs.Do(ctx, incr{key, n, ttl})
	if err != nil {
		return 0, fmt.Errorf("redis incr %s: %w", key, err)
	}
	return n, nil
}

func (r *Redis) incrBatch(ctx context.Context, qs []incr) ([]int64, error) {
	pipe := r.client.Pipeline()
	cmds := make([]*redis.IntCmd, len(qs))
	for i, q := range qs {
		cmds[i] = pipe.IncrBy(ctx, q.key, q.n)
		pipe.ExpireNX(ctx, q.key, q.ttl)
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, err
	}
	out := make([]int64, len(qs))
	for i, c := range cmds {
		out[i] = c.Val()
	}
	return out, nil
}

// Peek implements Store with GET.
func (r *Redis) Peek(ctx context.Context, key string) (int64, error) {
	n, err := r.client.Get(ctx, key).Int64()
	if errors.Is(err, redis.Nil) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("redis get %s: %w", key, err)
	}
	return n, nil
}

// decr takes one from a counter only while it exists, so that a late Decr never leaves a counter without expiry.
var decr = redis.NewScript(`if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECR', KEYS[1]) end return 0`)

// Decr implements Store.
func (r *Redis) Decr(ctx context.Context, key string) error {
	if err := decr.Run(ctx, r.client, []string{key}).Err(); err != nil {
		return fmt.Errorf("redis decr %s: %w", key, err)
	}
	return nil
}
