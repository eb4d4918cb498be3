package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis is a Store shared by replicas; it needs Redis 7.0 or later for EXPIRE NX.
type Redis struct {
	client *redis.Client
}

// NewRedis returns a Store on client. The client should honour context deadlines
// (ContextTimeoutEnabled, as ParseRedisURL sets it) so the Limiter's timeout bounds every call.
func NewRedis(client *redis.Client) *Redis {
	return &Redis{client: client}
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

// Incr implements Store with INCR and EXPIRE NX sent in one round trip.
func (r *Redis) Incr(ctx context.Context, key string, ttl time.Duration) (int64, error) {
	pipe := r.client.Pipeline()
	incr := pipe.Incr(ctx, key)
	pipe.ExpireNX(ctx, key, ttl)
	if _, err := pipe.Exec(ctx); err != nil {
		return 0, fmt.Errorf("redis incr %s: %w", key, err)
	}
	return incr.Val(), nil
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
