package io.weir.lab.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * What the dashboard, REST API and metrics cost the exactly-once pipeline in one {@link Measure},
 * from runs with and without them: the medians, the cost in percent of the run without, the
 * inter-quartile range of each side, and a bootstrap 95 % interval of the cost (resampling each
 * side's runs, with a fixed seed so that a report can be reproduced from its runs); and, as the
 * runs come in pairs that ran one after the other, the paired estimate: the median of the pairs'
 * costs, which a machine whose speed drifts between pairs disturbs less.
 *
 * @param withWeb each run's figure with the web server
 * @param withoutWeb each run's figure without it; the i-th of each side ran as a pair
 */
public record WebOverheadEstimate(Measure measure, List<Double> withWeb, List<Double> withoutWeb) {
  private static final int RESAMPLES = 10_000;
  private static final long SEED = 14;

  /** What a run's figure is, and so which way a cost goes. */
  public enum Measure {
    /** Records per second: the server costs when the runs with it are slower. */
    RECORDS_PER_SECOND,
    /** CPU seconds of the job's process: the server costs when the runs with it use more. */
    CPU_SECONDS
  }

  public WebOverheadEstimate {
    withWeb = List.copyOf(withWeb);
    withoutWeb = List.copyOf(withoutWeb);
  }

  /** Whether both sides have a run: otherwise no figure can be given. */
  boolean measured() {
    return !withWeb.isEmpty() && !withoutWeb.isEmpty();
  }

  /**
   * What the web server costs, in percent of the figure without it: throughput lost, or CPU time
   * added (negative: the runs with it did better, i.e. the difference is within the noise).
   */
  double overheadPercent() {
    return overheadPercent(median(sorted(withWeb)), median(sorted(withoutWeb)));
  }

  /** The bootstrap 95 % interval of {@link #overheadPercent}: {low, high}. */
  double[] interval95() {
    double[] with = sorted(withWeb);
    double[] without = sorted(withoutWeb);
    SplittableRandom random = new SplittableRandom(SEED);
    double[] estimates = new double[RESAMPLES];
    for (int i = 0; i < RESAMPLES; i++) {
      estimates[i] =
          overheadPercent(median(resample(with, random)), median(resample(without, random)));
    }
    Arrays.sort(estimates);
    return new double[] {quantile(estimates, 0.025), quantile(estimates, 0.975)};
  }

  /** Whether the runs form pairs: as many on each side, at least one. */
  boolean paired() {
    return measured() && withWeb.size() == withoutWeb.size();
  }

  /** The median of the pairs' costs, in percent: each pair's run with against its run without. */
  double pairedOverheadPercent() {
    double[] costs = pairCosts();
    Arrays.sort(costs);
    return median(costs);
  }

  /** The bootstrap 95 % interval of {@link #pairedOverheadPercent}, resampling pairs. */
  double[] pairedInterval95() {
    double[] costs = pairCosts();
    SplittableRandom random = new SplittableRandom(SEED);
    double[] estimates = new double[RESAMPLES];
    for (int i = 0; i < RESAMPLES; i++) {
      estimates[i] = median(resample(costs, random));
    }
    Arrays.sort(estimates);
    return new double[] {quantile(estimates, 0.025), quantile(estimates, 0.975)};
  }

  private double[] pairCosts() {
    double[] costs = new double[withWeb.size()];
    for (int i = 0; i < costs.length; i++) {
      costs[i] = overheadPercent(withWeb.get(i), withoutWeb.get(i));
    }
    return costs;
  }

  /** {first quartile, median, third quartile} of one side's runs. */
  static double[] quartiles(List<Double> runs) {
    double[] values = sorted(runs);
    return new double[] {quantile(values, 0.25), median(values), quantile(values, 0.75)};
  }

  private double overheadPercent(double with, double without) {
    return switch (measure) {
      case RECORDS_PER_SECOND -> (without - with) * 100 / without;
      case CPU_SECONDS -> (with - without) * 100 / without;
    };
  }

  private static double[] resample(double[] values, SplittableRandom random) {
    double[] sample = new double[values.length];
    for (int i = 0; i < values.length; i++) {
      sample[i] = values[random.nextInt(values.length)];
    }
    Arrays.sort(sample);
    return sample;
  }

  private static double[] sorted(List<Double> values) {
    double[] sorted = new ArrayList<>(values).stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(sorted);
    return sorted;
  }

  private static double median(double[] sorted) {
    return quantile(sorted, 0.5);
  }

  /** Linear interpolation between the closest ranks of a sorted array. */
  private static double quantile(double[] sorted, double q) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    double position = q * (sorted.length - 1);
    int below = (int) Math.floor(position);
    int above = (int) Math.ceil(position);
    return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
  }
}
