package io.zaris.bench.peers;

import org.HdrHistogram.Histogram;

/**
 * What one measured interval produced: completed requests (in all, and per second), their latencies
 * (nanoseconds), failed requests, and reads that found no value although every key was loaded beforehand.
 */
record Sample(long completed, double opsPerSecond, Histogram latencies, long failures, long misses) {
}
