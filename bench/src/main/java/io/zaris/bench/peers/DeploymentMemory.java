package io.zaris.bench.peers;

/**
 * Memory a deployment provides for data of a measured size: the size divided by the share of memory the system
 * recommends filling ({@link RecommendedOccupancy}). Pure arithmetic, apart from the measuring.
 */
final class DeploymentMemory {

    private DeploymentMemory() {
    }

    /** Bytes to provide so that {@code dataBytes} fill no more than {@code occupancy} of them. */
    static double needed(double dataBytes, RecommendedOccupancy occupancy) {
        if (!(dataBytes >= 0) || Double.isInfinite(dataBytes)) {
            throw new IllegalArgumentException("data size must be a finite number of bytes ≥ 0, not " + dataBytes);
        }
        return dataBytes / occupancy.fraction();
    }

    /** One system's need ÷ another's; NaN when the other needs nothing (no basis for a ratio). */
    static double ratio(double needed, double otherNeeded) {
        return otherNeeded > 0 ? needed / otherNeeded : Double.NaN;
    }
}
