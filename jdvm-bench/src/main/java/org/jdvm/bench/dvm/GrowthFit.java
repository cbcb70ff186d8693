package org.jdvm.bench.dvm;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleUnaryOperator;

/**
 * Which growth a measured column follows (docs/cli.md "jdvm bench", {@code --agents}): each model
 * {@code y = a + b·f(n)} with f one of log n, n and n log n, fitted by least squares to the
 * measured points, and its root-mean-square residual; the best model is the one with the smallest.
 * With as many points as sizes measured (three or four), a fit says which curve the points lie
 * closest to, not that it is the law: the residuals are printed with it.
 */
public final class GrowthFit {
  private GrowthFit() {}

  /** A growth model. */
  public enum Model {
    LOG("log n", Math::log),
    LINEAR("n", n -> n),
    N_LOG_N("n log n", n -> n * Math.log(n));

    final String label;
    final DoubleUnaryOperator f;

    Model(String label, DoubleUnaryOperator f) {
      this.label = label;
      this.f = f;
    }
  }

  /** One model fitted: {@code y = intercept + slope·f(n)}, and its RMS residual. */
  public record Fit(Model model, double intercept, double slope, double rmsResidual) {
    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%s%s (rms residual %.3g)",
          model.label,
          slope < 0 ? ", falling" : "",
          rmsResidual);
    }
  }

  /** Every model fitted to the points {@code (n[i], y[i])}, best first. */
  public static List<Fit> fits(double[] n, double[] y) {
    if (n.length != y.length || n.length < 2) {
      throw new IllegalArgumentException("a fit needs at least two points, one y for each n");
    }
    List<Fit> out = new ArrayList<>();
    for (Model m : Model.values()) {
      out.add(fit(m, n, y));
    }
    out.sort(Comparator.comparingDouble(Fit::rmsResidual));
    return out;
  }

  static Fit fit(Model m, double[] n, double[] y) {
    int k = n.length;
    double[] x = new double[k];
    double mx = 0;
    double my = 0;
    for (int i = 0; i < k; i++) {
      x[i] = m.f.applyAsDouble(n[i]);
      mx += x[i] / k;
      my += y[i] / k;
    }
    double sxy = 0;
    double sxx = 0;
    for (int i = 0; i < k; i++) {
      sxy += (x[i] - mx) * (y[i] - my);
      sxx += (x[i] - mx) * (x[i] - mx);
    }
    double slope = sxx == 0 ? 0 : sxy / sxx;
    double intercept = my - slope * mx;
    double sq = 0;
    for (int i = 0; i < k; i++) {
      double r = y[i] - (intercept + slope * x[i]);
      sq += r * r;
    }
    return new Fit(m, intercept, slope, Math.sqrt(sq / k));
  }
}
