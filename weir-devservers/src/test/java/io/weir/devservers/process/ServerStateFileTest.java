package io.weir.devservers.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerStateFileTest {
  @TempDir Path directory;

  @Test
  void when_aStateFileIsReplaced_then_itIsReadBackWholeAndNoTemporaryFileIsLeft()
      throws IOException {
    // given
    Path file = directory.resolve("broker.state");
    ServerStateFile.write(file, "test server", Map.of("pid", "41", "port", "9092"));

    // when
    ServerStateFile.write(file, "test server", Map.of("pid", "42", "port", "9093"));

    // then
    Properties expected = new Properties();
    expected.putAll(Map.of("pid", "42", "port", "9093"));
    assertThat(ServerStateFile.read(file)).contains(expected);
    try (var files = Files.list(directory)) {
      assertThat(files).containsExactly(file);
    }
  }
}
