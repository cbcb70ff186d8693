package org.jdvm.bench.dvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class GrowthFitTest {
  private static final double[] SIZES = {10, 100, 1_000, 10_000};

  @Test
  void pointsOnALineFitTheLinearModelWithNoResidual() {
    List<GrowthFit.Fit> fits = GrowthFit.fits(SIZES, new double[] {7, 52, 502, 5002});
    assertThat(fits.getFirst().model()).isEqualTo(GrowthFit.Model.LINEAR);
    assertThat(fits.getFirst().rmsResidual()).isLessThan(1e-6);
    assertThat(fits.getFirst().slope()).isCloseTo(0.5, org.assertj.core.data.Offset.offset(1e-9));
  }

  @Test
  void pointsOnALogCurveFitTheLogModel() {
    double[] y = new double[SIZES.length];
    for (int i = 0; i < y.length; i++) {
      y[i] = 3 + 2 * Math.log(SIZES[i]);
    }
    assertThat(GrowthFit.fits(SIZES, y).getFirst().model()).isEqualTo(GrowthFit.Model.LOG);
  }

  @Test
  void pointsOnAnNLogNCurveFitThatModel() {
    double[] y = new double[SIZES.length];
    for (int i = 0; i < y.length; i++) {
      y[i] = 1 + SIZES[i] * Math.log(SIZES[i]);
    }
    assertThat(GrowthFit.fits(SIZES, y).getFirst().model()).isEqualTo(GrowthFit.Model.N_LOG_N);
  }

  @Test
  void aFallingFitSaysSo() {
    GrowthFit.Fit best = GrowthFit.fits(SIZES, new double[] {5000, 900, 350, 300}).getFirst();
    assertThat(best.slope()).isNegative();
    assertThat(best.toString()).contains(", falling (rms residual");
  }

  @Test
  void fewerThanTwoPointsOrUnpairedPointsAreRefused() {
    assertThatThrownBy(() -> GrowthFit.fits(new double[] {10}, new double[] {1}))
        .hasMessageContaining("at least two points");
    assertThatThrownBy(() -> GrowthFit.fits(SIZES, new double[] {1, 2}))
        .hasMessageContaining("at least two points");
  }
}
