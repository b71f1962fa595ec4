package io.weir.runtime.failpoint;

import io.weir.api.datastream.JobConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses failpoint configurations: {@code name=action[,name=action...]} where an action is {@code
 * halt}, {@code halt(exitCode)}, {@code throw} or {@code pause(ms)}, optionally followed by
 * {@code @N} to fire only on the Nth hit, e.g. {@code
 * sink.commit.before=halt@3,task.ack.before=pause(500)}.
 */
public final class FailpointConfiguration {
  /** The system property a runner reads for its jobs; it wins over the environment variable. */
  public static final String SYSTEM_PROPERTY = "weir.failpoints";

  /** The environment variable a runner reads when the system property is not set. */
  public static final String ENVIRONMENT_VARIABLE = "WEIR_FAILPOINTS";

  /** The exit code of {@code halt} without one: what a shell reports for a process killed by 9. */
  public static final int DEFAULT_HALT_EXIT_CODE = 137;

  private static final Pattern ENTRY =
      Pattern.compile(
          "(?<name>[^=]+)=(?<action>halt|throw|pause)(?:\\((?<argument>\\d+)\\))?(?:@(?<hit>\\d+)(?:-(?<lastHit>\\d+))?)?");

  private FailpointConfiguration() {}

  /**
   * Arms the process's failpoints in a job it runs: when {@code config} names none, gives it the
   * configuration of the system property or else the environment variable (checked here, so a
   * misspelt failpoint fails the start instead of letting a lab run without its crash). The one
   * place that reads them: each runner ({@code weir run}, the job manager and task manager
   * processes) calls it once per job before the job's failpoints are made.
   *
   * @throws IllegalArgumentException naming the source and the offending entry
   */
  public static void applyProcessConfiguration(JobConfig config) {
    if (config.failpoints() != null) {
      return;
    }
    String property = System.getProperty(SYSTEM_PROPERTY);
    if (property != null) {
      parse(property, "system property " + SYSTEM_PROPERTY);
      config.failpoints(property);
      return;
    }
    String variable = System.getenv(ENVIRONMENT_VARIABLE);
    if (variable != null) {
      parse(variable, "environment variable " + ENVIRONMENT_VARIABLE);
      config.failpoints(variable);
    }
  }

  /**
   * Parses a configuration; blank means none.
   *
   * @param source where the text came from, for the error message
   * @throws IllegalArgumentException naming the source and the offending entry
   */
  public static Map<String, Failpoint> parse(String text, String source) {
    Map<String, Failpoint> failpoints = new LinkedHashMap<>();
    if (text.isBlank()) {
      return failpoints;
    }
    for (String entry : text.split(",")) {
      Failpoint failpoint = parseEntry(entry.strip(), source);
      if (failpoints.put(failpoint.name(), failpoint) != null) {
        throw new IllegalArgumentException(
            "failpoint " + failpoint.name() + " is configured twice in " + source);
      }
    }
    return failpoints;
  }

  private static Failpoint parseEntry(String entry, String source) {
    Matcher matcher = ENTRY.matcher(entry);
    if (!matcher.matches()) {
      throw new IllegalArgumentException(
          "invalid failpoint '"
              + entry
              + "' in "
              + source
              + ": expected name=halt|halt(exitCode)|throw|pause(ms)[@hit|@first-last]");
    }
    String name = matcher.group("name").strip();
    if (!FailpointNames.isKnown(name)) {
      throw new IllegalArgumentException(
          "unknown failpoint '" + name + "' in " + source + "; known: " + FailpointNames.known());
    }
    String hit = matcher.group("hit");
    int onlyOnHit = hit == null ? 0 : parseNumber(hit, entry, source);
    if (hit != null && onlyOnHit == 0) {
      throw new IllegalArgumentException(
          "invalid failpoint '" + entry + "' in " + source + ": hits count from 1");
    }
    String lastHit = matcher.group("lastHit");
    int last = lastHit == null ? onlyOnHit : parseNumber(lastHit, entry, source);
    if (last < onlyOnHit) {
      throw new IllegalArgumentException(
          "invalid failpoint '"
              + entry
              + "' in "
              + source
              + ": the last hit comes before the first");
    }
    return new Failpoint(name, action(matcher, entry, source), onlyOnHit, last);
  }

  private static FailpointAction action(Matcher matcher, String entry, String source) {
    String argument = matcher.group("argument");
    return switch (matcher.group("action")) {
      case "halt" ->
          new FailpointAction.Halt(
              argument == null ? DEFAULT_HALT_EXIT_CODE : parseNumber(argument, entry, source));
      case "throw" -> {
        if (argument != null) {
          throw new IllegalArgumentException(
              "invalid failpoint '" + entry + "' in " + source + ": throw takes no argument");
        }
        yield new FailpointAction.Throw();
      }
      default -> {
        if (argument == null) {
          throw new IllegalArgumentException(
              "invalid failpoint '" + entry + "' in " + source + ": pause needs (ms)");
        }
        yield new FailpointAction.Pause(parseNumber(argument, entry, source));
      }
    };
  }

  private static int parseNumber(String digits, String entry, String source) {
    try {
      return Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "invalid failpoint '" + entry + "' in " + source + ": " + digits + " is too large");
    }
  }
}
