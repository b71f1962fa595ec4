package io.weir.runtime.sink.file;

import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The names of part files. Committed: {@code part-<subtask>-<sequence>-<n>}. In progress: the same
 * name hidden with a leading dot and ending {@code .inprogress}, so that a reader of the output
 * directory that skips hidden files never sees one even if both directories are the same.
 */
final class PartFileNames {
  private static final Pattern NAME =
      Pattern.compile("\\.?part-(\\d+)-(\\d+)-(\\d+)(\\.inprogress)?");

  private PartFileNames() {}

  static String committed(int subtaskIndex, long sequence, int part) {
    return "part-" + subtaskIndex + "-" + sequence + "-" + part;
  }

  static String staged(int subtaskIndex, long sequence, int part) {
    return "." + committed(subtaskIndex, sequence, part) + ".inprogress";
  }

  /** The start of the staged names of every part of one transaction. */
  static String stagedPrefix(int subtaskIndex, long sequence) {
    return ".part-" + subtaskIndex + "-" + sequence + "-";
  }

  /** The transaction sequence in a staged or committed name of the subtask, if it is one. */
  static OptionalLong sequenceOf(String fileName, int subtaskIndex) {
    Matcher matcher = NAME.matcher(fileName);
    if (!matcher.matches() || Integer.parseInt(matcher.group(1)) != subtaskIndex) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(Long.parseLong(matcher.group(2)));
  }
}
