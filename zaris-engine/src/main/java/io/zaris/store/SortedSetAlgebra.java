package io.zaris.store;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * ZUNION, ZINTER and ZDIFF over sources already read: each source maps its members to scores (a set's members all
 * score 1, as Redis counts them) and carries a weight. Redis's arithmetic: a weighted score that is not a number (an
 * infinity times 0) counts as 0 in a union and in the first source of an intersection (in a later one, SUM turns it
 * into 0 and MIN and MAX ignore it), and a SUM of +inf and −inf is 0; UNION and INTER visit the sources from the
 * smallest to the largest, as Redis does, so a sum of three or more is added in Redis's order. The result is in
 * Redis's order of a sorted set: by score, then by member bytes. Pure.
 */
final class SortedSetAlgebra {

    /** Which members the result holds. */
    enum Kind { UNION, INTER, DIFF }

    /** How a member's weighted scores from several sources become one. */
    enum Aggregate {
        SUM, MIN, MAX;

        double apply(double target, double value) {
            return switch (this) {
                case SUM -> {
                    double sum = target + value;
                    yield Double.isNaN(sum) ? 0.0 : sum;
                }
                case MIN -> value < target ? value : target;
                case MAX -> value > target ? value : target;
            };
        }
    }

    /** One input: its members' scores and its weight. */
    record Source(Map<ByteKey, Double> scores, double weight) {

        double weighted(double score) {
            double value = weight * score;
            return Double.isNaN(value) ? 0.0 : value;
        }
    }

    private SortedSetAlgebra() {
    }

    /** The combined members and scores, in the result's order. */
    static List<SortedSetEntry.Scored> combine(Kind kind, Aggregate aggregate, List<Source> sources) {
        Map<ByteKey, Double> result = new HashMap<>();
        switch (kind) {
            case DIFF -> {
                for (Map.Entry<ByteKey, Double> member : sources.get(0).scores().entrySet()) {
                    boolean elsewhere = false;
                    for (int i = 1; i < sources.size() && !elsewhere; i++) {
                        elsewhere = sources.get(i).scores().containsKey(member.getKey());
                    }
                    if (!elsewhere) {
                        result.put(member.getKey(), member.getValue());
                    }
                }
            }
            case INTER -> {
                List<Source> bySize = bySize(sources);
                for (Map.Entry<ByteKey, Double> member : bySize.get(0).scores().entrySet()) {
                    double score = bySize.get(0).weighted(member.getValue());
                    boolean everywhere = true;
                    for (int i = 1; i < bySize.size() && everywhere; i++) {
                        Double other = bySize.get(i).scores().get(member.getKey());
                        if (other == null) {
                            everywhere = false;
                        } else {
                            // Redis zeroes a NaN only in the first source's weighted score and in a sum
                            score = aggregate.apply(score, bySize.get(i).weight() * other);
                        }
                    }
                    if (everywhere) {
                        result.put(member.getKey(), score);
                    }
                }
            }
            case UNION -> {
                for (Source source : bySize(sources)) {
                    for (Map.Entry<ByteKey, Double> member : source.scores().entrySet()) {
                        double value = source.weighted(member.getValue());
                        result.merge(member.getKey(), value, aggregate::apply);
                    }
                }
            }
            default -> throw new IllegalArgumentException("unknown kind " + kind);
        }
        List<SortedSetEntry.Scored> out = new ArrayList<>(result.size());
        result.forEach((member, score) -> out.add(new SortedSetEntry.Scored(score, member, 0)));
        out.sort(null);
        return out;
    }

    /** The sources from the fewest members to the most; a stable sort keeps equal sizes in the command's order. */
    private static List<Source> bySize(List<Source> sources) {
        List<Source> sorted = new ArrayList<>(sources);
        sorted.sort(Comparator.comparingInt(source -> source.scores().size()));
        return sorted;
    }
}
