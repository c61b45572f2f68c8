package io.zaris.chaos;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The operations of one key, split by what they do. A key is used by one kind of writer only: plain writes
 * (a single-writer register), compare-and-set updates, increments, set adds, or list pushes and pops. Built and read
 * by one thread.
 */
final class KeyOps {

    final String key;
    final List<Op.Write> writes = new ArrayList<>();
    final List<Op.Cas> updates = new ArrayList<>();
    final List<Op.Increment> increments = new ArrayList<>();
    final List<Op.SetAdd> setAdds = new ArrayList<>();
    final List<Op.Push> pushes = new ArrayList<>();
    final List<Op.Pop> pops = new ArrayList<>();
    /** SMEMBERS during the run, and once the cluster healed (in the order recorded). */
    final List<Op.SetRead> setReads = new ArrayList<>();
    final List<Op.SetRead> setReadsAfterHealing = new ArrayList<>();
    /** LRANGE of the whole list once the cluster healed, in the order recorded. */
    final List<Op.ListRead> listReadsAfterHealing = new ArrayList<>();
    /** Reads during the run. */
    final List<Op.Read> reads = new ArrayList<>();
    /** Reads once the cluster healed, in the order recorded. */
    final List<Op.Read> readsAfterHealing = new ArrayList<>();

    private KeyOps(String key) {
        this.key = key;
    }

    /**
     * The history's operations by key, keys in order of first appearance.
     *
     * @throws IllegalArgumentException when a key has writers of more than one kind
     */
    static Map<String, KeyOps> byKey(List<Op> ops) {
        Map<String, KeyOps> keys = new LinkedHashMap<>();
        for (Op op : ops) {
            KeyOps key = keys.computeIfAbsent(op.key(), KeyOps::new);
            if (op instanceof Op.Write write) {
                key.writes.add(write);
            } else if (op instanceof Op.Cas update) {
                key.updates.add(update);
            } else if (op instanceof Op.Increment increment) {
                key.increments.add(increment);
            } else if (op instanceof Op.Read read) {
                (read.afterHealing() ? key.readsAfterHealing : key.reads).add(read);
            } else if (op instanceof Op.SetAdd add) {
                key.setAdds.add(add);
            } else if (op instanceof Op.SetRead read) {
                (read.afterHealing() ? key.setReadsAfterHealing : key.setReads).add(read);
            } else if (op instanceof Op.Push push) {
                key.pushes.add(push);
            } else if (op instanceof Op.Pop pop) {
                key.pops.add(pop);
            } else if (op instanceof Op.ListRead read) {
                key.listReadsAfterHealing.add(read);
            }
        }
        for (KeyOps key : keys.values()) {
            int kinds = (key.writes.isEmpty() ? 0 : 1) + (key.updates.isEmpty() ? 0 : 1)
                    + (key.increments.isEmpty() ? 0 : 1) + (key.setAdds.isEmpty() ? 0 : 1)
                    + (key.pushes.isEmpty() && key.pops.isEmpty() ? 0 : 1);
            if (kinds > 1) {
                throw new IllegalArgumentException(key.key + " has writers of more than one kind");
            }
        }
        return keys;
    }

    /** Whether anything tried to change the key. */
    boolean written() {
        return !writes.isEmpty() || !updates.isEmpty() || !increments.isEmpty() || !setAdds.isEmpty()
                || !pushes.isEmpty() || !pops.isEmpty();
    }

    /** Whether a read after healing of the kind the key's writer needs was answered. */
    boolean readBackAfterHealing() {
        if (!setAdds.isEmpty()) {
            return setReadAfterHealing() != null;
        }
        if (!pushes.isEmpty() || !pops.isEmpty()) {
            return listReadAfterHealing() != null;
        }
        return answeredAfterHealing() != null;
    }

    /** How many reads after healing were tried, of any kind. */
    int readsAfterHealingTried() {
        return readsAfterHealing.size() + setReadsAfterHealing.size() + listReadsAfterHealing.size();
    }

    /** The last answered SMEMBERS after healing, {@code null} when none was answered. */
    Op.SetRead setReadAfterHealing() {
        for (int i = setReadsAfterHealing.size() - 1; i >= 0; i--) {
            if (setReadsAfterHealing.get(i).answered()) {
                return setReadsAfterHealing.get(i);
            }
        }
        return null;
    }

    /** The last answered LRANGE after healing, {@code null} when none was answered. */
    Op.ListRead listReadAfterHealing() {
        for (int i = listReadsAfterHealing.size() - 1; i >= 0; i--) {
            if (listReadsAfterHealing.get(i).answered()) {
                return listReadsAfterHealing.get(i);
            }
        }
        return null;
    }

    /** The last answered read after healing, {@code null} when none was answered. */
    Op.Read answeredAfterHealing() {
        for (int i = readsAfterHealing.size() - 1; i >= 0; i--) {
            if (readsAfterHealing.get(i).answered()) {
                return readsAfterHealing.get(i);
            }
        }
        return null;
    }
}
