package io.weir.lab.junit;

import io.weir.lab.crash.CrashPoint;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test that runs a job through the lab's crash matrix against an embedded Kafka broker: for each
 * crash point, the job (a process of its own, started with this JVM's class path) is halted at that
 * step of the checkpoint protocol under a steady input, restarted from its latest checkpoint, fed
 * more input, and its committed output is counted against the input, id by id. The test fails
 * naming every cell that lost or duplicated a record, or could not be measured; a {@link
 * CrashMatrixReport} parameter gives the cells to the test method when they all pass.
 *
 * <p>The job keeps the lab's contract: its {@code main} takes {@code --bootstrap HOST:PORT
 * --input-topic T --output-topic U --group G} (then {@link #args}), reads T with a Kafka source in
 * group G, writes U with an exactly-once Kafka sink, and checkpoints about every second; each
 * output record's value ends with {@code ,<id>} of the input record {@code w<k>,<f>,<id>} it came
 * from.
 *
 * <p>Cells run one after another on one broker, each with topics, group and checkpoints of its own;
 * a cell takes tens of seconds, so a short matrix suits a test suite.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@Test
@ExtendWith(CrashMatrixExtension.class)
public @interface WeirCrashMatrix {
  /** The job's main class. */
  Class<?> job();

  /** More arguments for the job, after the lab's own. */
  String[] args() default {};

  /** Where the job is crashed, one cell each (default: every step the lab knows). */
  CrashPoint[] crashPoints() default {
    CrashPoint.AFTER_SINK_COMMIT,
    CrashPoint.BEFORE_SINK_COMMIT,
    CrashPoint.AFTER_SOURCE_COMMIT,
    CrashPoint.BEFORE_SOURCE_COMMIT
  };

  /** Input records per second while the job runs towards its crash. */
  long ratePerSecond() default 300;

  /** Records sent after the restart. */
  long recordsAfterRestart() default 300;

  /** On which pass of the crash point the job halts (1 = first). */
  int crashAt() default 2;

  /** How long each wait of a cell (crash, settling) may take, in seconds. */
  long timeoutSeconds() default 90;
}
