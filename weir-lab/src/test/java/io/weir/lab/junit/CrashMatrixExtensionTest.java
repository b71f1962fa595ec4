package io.weir.lab.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.examples.SeedJob;
import io.weir.lab.crash.CrashPoint;

/** The crash-matrix extension on the seed job, one cell so that it fits the suite's budget. */
class CrashMatrixExtensionTest {
  @WeirCrashMatrix(job = SeedJob.class, crashPoints = CrashPoint.BEFORE_SINK_COMMIT)
  void when_seedJobCrashesBeforeItsSinkCommits_then_theRestoredRunIsExactlyOnce(
      CrashMatrixReport report) {
    // given: the job halted before its sink committed, then restored from its checkpoint
    // when: the extension counted its committed output against the input
    // then
    assertThat(report.cells()).hasSize(1);
    assertThat(report.cells().get(0).outcome().exactlyOnce()).isTrue();
    assertThat(report.cells().get(0).verdict().in()).isPositive();
  }
}
