package web

// WithVerify returns cfg with the password check replaced by verify, so tests can watch the checks run.
func WithVerify(cfg Config, verify func(hash, password string) bool) Config {
	cfg.verify = verify
	return cfg
}
