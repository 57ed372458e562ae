// Package config holds the runtime configuration of aurora-relay, the
// server-side component of Project Aurora. Values can be overridden with
// environment variables; see howto "Run the relay locally".
package config

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

const (
	// DefaultPort is the WebSocket-over-TLS listener. Devices connect to
	// wss://<host>:7443 unless AURORA_RELAY_PORT says otherwise.
	DefaultPort = 7443

	// DefaultMetricsPort serves Prometheus metrics on /metrics.
	DefaultMetricsPort = 9464

	// MaxBatchOps is the largest batch a device may push. Larger batches
	// are rejected with AUR-413. The SDK splits batches client-side.
	MaxBatchOps = 512

	// DeviceRateLimit is requests per second per device before AUR-429.
	DeviceRateLimit = 200

	// DefaultCompactionInterval: segments are compacted every 6 hours
	// (it used to be nightly, changed in March 2026).
	DefaultCompactionInterval = 6 * time.Hour

	// DefaultTombstoneTTL: tombstones are kept for 45 days before they are
	// garbage-collected. A device that stays offline longer than this may
	// miss deletes, so the SDK warns the app before that happens.
	DefaultTombstoneTTL = 45 * 24 * time.Hour

	// DrainTimeout bounds connection draining during a rolling restart.
	DrainTimeout = 90 * time.Second
)

// RelayConfig is the full configuration of one relay node.
type RelayConfig struct {
	Port               int
	MetricsPort        int
	NodeName           string
	CertFile           string
	KeyFile            string
	ArchiveBucket      string
	CompactionInterval time.Duration
	TombstoneTTL       time.Duration
	MaxBatchOps        int
	DeviceRateLimit    int
}

// Default returns the configuration used when no environment overrides are set.
func Default() RelayConfig {
	return RelayConfig{
		Port:               DefaultPort,
		MetricsPort:        DefaultMetricsPort,
		NodeName:           "relay-dev",
		CertFile:           "relay/dev/cert.pem",
		KeyFile:            "relay/dev/key.pem",
		ArchiveBucket:      "aurora-archive-dev",
		CompactionInterval: DefaultCompactionInterval,
		TombstoneTTL:       DefaultTombstoneTTL,
		MaxBatchOps:        MaxBatchOps,
		DeviceRateLimit:    DeviceRateLimit,
	}
}

// FromEnv starts from Default and applies AURORA_* environment overrides.
func FromEnv() (RelayConfig, error) {
	cfg := Default()

	if v := os.Getenv("AURORA_RELAY_PORT"); v != "" {
		p, err := strconv.Atoi(v)
		if err != nil || p <= 0 || p > 65535 {
			return cfg, fmt.Errorf("AURORA_RELAY_PORT: invalid port %q", v)
		}
		cfg.Port = p
	}
	if v := os.Getenv("AURORA_NODE_NAME"); v != "" {
		cfg.NodeName = v
	}
	if v := os.Getenv("AURORA_ARCHIVE_BUCKET"); v != "" {
		cfg.ArchiveBucket = v
	}
	if v := os.Getenv("AURORA_COMPACTION_INTERVAL"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return cfg, fmt.Errorf("AURORA_COMPACTION_INTERVAL: %w", err)
		}
		cfg.CompactionInterval = d
	}
	return cfg, cfg.Validate()
}

// Validate rejects configurations that would break convergence guarantees.
func (c RelayConfig) Validate() error {
	if c.TombstoneTTL < 7*24*time.Hour {
		// Shorter than a week means a device on holiday resurrects deleted records.
		return fmt.Errorf("tombstone TTL %s is too short", c.TombstoneTTL)
	}
	if c.MaxBatchOps <= 0 || c.MaxBatchOps > 4096 {
		return fmt.Errorf("max batch ops %d out of range", c.MaxBatchOps)
	}
	if c.Port == c.MetricsPort {
		return fmt.Errorf("port %d used for both relay and metrics", c.Port)
	}
	return nil
}
