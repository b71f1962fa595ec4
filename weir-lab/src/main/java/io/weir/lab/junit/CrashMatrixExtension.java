package io.weir.lab.junit;

import io.weir.lab.CellTopics;
import io.weir.lab.LabProgress;
import io.weir.lab.LabSettings;
import io.weir.lab.crash.CellResult;
import io.weir.lab.crash.MatrixRun;
import io.weir.lab.crash.Recovery;
import io.weir.lab.process.JobRunner;
import io.weir.lab.process.LabJob;
import io.weir.runtime.checkpoint.storage.Directories;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.extension.BeforeTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Runs the job of a {@link WeirCrashMatrix} test through the lab's crash matrix before the test
 * method, on the test's thread, and fails the test on any lost or duplicated record. Each test gets
 * a working directory of its own (kept when the test fails, for the job logs; deleted when it
 * passes) and a broker of its own, stopped when the matrix ends. Nothing is shared between tests,
 * so tests with the annotation may run in parallel.
 */
public final class CrashMatrixExtension implements BeforeTestExecutionCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(CrashMatrixExtension.class);

  @Override
  public void beforeTestExecution(ExtensionContext context) throws Exception {
    WeirCrashMatrix matrix =
        AnnotationSupport.findAnnotation(context.getRequiredTestMethod(), WeirCrashMatrix.class)
            .orElseThrow(
                () -> new IllegalStateException("@WeirCrashMatrix is missing on the test method"));
    Path directory = Files.createTempDirectory("weir-crash-matrix-");
    LabProgress progress = new LabProgress(System.out, "crash matrix");
    LabJob job =
        LabJob.user(matrix.job().getName(), List.of(matrix.args())).runBy(JobRunner.JOB_MAIN);
    progress.line(job.describe() + " in " + directory);
    List<CellResult> cells =
        new MatrixRun(job, settings(matrix), true, progress)
            .run(
                directory,
                CellTopics.of("input", "output"),
                List.of(matrix.crashPoints()),
                List.of(Recovery.CHECKPOINT));
    CrashMatrixReport report = new CrashMatrixReport(cells);
    progress.line("cells:\n" + report);
    report.assertExactlyOnce();
    Directories.deleteRecursively(directory);
    context.getStore(NAMESPACE).put(CrashMatrixReport.class, report);
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == CrashMatrixReport.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return context.getStore(NAMESPACE).get(CrashMatrixReport.class, CrashMatrixReport.class);
  }

  private static LabSettings settings(WeirCrashMatrix matrix) {
    return new LabSettings(
        matrix.ratePerSecond(),
        matrix.recordsAfterRestart(),
        matrix.crashAt(),
        Duration.ofSeconds(matrix.timeoutSeconds()));
  }
}
