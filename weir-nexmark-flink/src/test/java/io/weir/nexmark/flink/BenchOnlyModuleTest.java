package io.weir.nexmark.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * This module is for the bench alone: no other module of the build may depend on it, or Flink would
 * reach Weir's users.
 */
class BenchOnlyModuleTest {
  @Test
  void when_readingEveryOtherModulesPom_then_noneDependsOnThisModule() throws IOException {
    // given: the build's root, one level above this module
    Path root = Path.of("").toAbsolutePath().getParent();
    List<Path> poms;
    try (Stream<Path> modules = Files.list(root)) {
      poms =
          modules
              .map(module -> module.resolve("pom.xml"))
              .filter(Files::isRegularFile)
              .filter(pom -> !pom.getParent().getFileName().toString().equals("weir-nexmark-flink"))
              .toList();
    }
    // then
    assertThat(poms).hasSizeGreaterThan(10);
    for (Path pom : poms) {
      assertThat(Files.readString(pom))
          .as(root.relativize(pom).toString())
          .doesNotContain("<artifactId>weir-nexmark-flink</artifactId>");
    }
  }
}
