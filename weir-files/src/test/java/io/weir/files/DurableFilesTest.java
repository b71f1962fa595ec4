package io.weir.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DurableFilesTest {
  @TempDir Path directory;

  @Test
  void when_aCrashLeftAHalfWrittenTemporaryFile_then_theNextWriteReplacesTheFileWhole()
      throws IOException {
    // given: the file, and beside it the start of a longer write that a crash interrupted
    Path target = directory.resolve("jobmanager.pid");
    Files.writeString(target, "41\n");
    Files.writeString(directory.resolve("jobmanager.pid.inprogress"), "1234567");

    // when
    DurableFiles.writeAtomically(target, "42\n".getBytes(StandardCharsets.US_ASCII));

    // then: only the file, holding exactly the new content
    try (var files = Files.list(directory)) {
      assertThat(files).containsExactly(target);
    }
    assertThat(Files.readString(target)).isEqualTo("42\n");
  }
}
