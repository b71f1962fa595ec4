package io.weir.devservers.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A broker that exited at its start because one of its ports was taken, found by the line it logs
 * for that. A port chosen free can be taken by another process before the broker binds it: another
 * server, or the local end of any outgoing connection, which the system takes from the same range.
 *
 * @param port the port the broker could not bind
 * @param line the broker's own line that says so
 */
record BrokerPortConflict(int port, String line) {
  private static final Pattern BIND_FAILURE =
      Pattern.compile("failed to bind to \\S+?:(\\d+): Address already in use");

  /**
   * The last port conflict that {@code files} (the broker's log and output, a missing one is
   * skipped) report for one of {@code node}'s ports, if any.
   */
  static Optional<BrokerPortConflict> find(BrokerNode node, Path... files) {
    return Stream.of(files)
        .map(file -> last(file, node))
        .flatMap(Optional::stream)
        .reduce((earlier, later) -> later);
  }

  private static Optional<BrokerPortConflict> last(Path file, BrokerNode node) {
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try (Stream<String> lines = Files.lines(file, StandardCharsets.ISO_8859_1)) {
      return lines
          .map(BrokerPortConflict::parse)
          .flatMap(Optional::stream)
          .filter(
              conflict ->
                  conflict.port() == node.port() || conflict.port() == node.controllerPort())
          .reduce((earlier, later) -> later);
    } catch (IOException | UncheckedIOException e) {
      return Optional.empty();
    }
  }

  private static Optional<BrokerPortConflict> parse(String line) {
    Matcher matcher = BIND_FAILURE.matcher(line);
    return matcher.find()
        ? Optional.of(new BrokerPortConflict(Integer.parseInt(matcher.group(1)), line.strip()))
        : Optional.empty();
  }
}
