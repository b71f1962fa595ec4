package io.weir.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.cluster.rpc.JobJar;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JarStoreTest {
  @TempDir Path directory;

  @Test
  void when_sameJarStoredTwice_then_oneFileNamedByItsSha256() throws Exception {
    JarStore store = new JarStore(directory.resolve("jars"));
    byte[] bytes = "a jar".getBytes(StandardCharsets.UTF_8);
    JobJar jar = JobJar.of("job.jar", bytes);

    Path first = store.store(jar, bytes);
    Path second = store.store(jar, bytes);

    assertThat(second).isEqualTo(first).hasFileName(jar.sha256() + ".jar").hasBinaryContent(bytes);
    assertThat(store.find(jar)).contains(first);
    try (var files = Files.list(directory.resolve("jars"))) {
      assertThat(files).hasSize(1);
    }
  }

  @Test
  void when_bytesDoNotMatchTheirJar_then_nothingIsStored() {
    JarStore store = new JarStore(directory.resolve("jars"));
    JobJar jar = JobJar.of("job.jar", "a jar".getBytes(StandardCharsets.UTF_8));

    assertThatThrownBy(() -> store.store(jar, "another".getBytes(StandardCharsets.UTF_8)))
        .hasMessage("The jar job.jar arrived damaged (its SHA-256 does not match)");
    assertThat(store.find(jar)).isEmpty();
  }

  @Test
  void when_aKilledProcessLeftItsTemporaryStore_then_theNextStoreDeletesIt() throws Exception {
    Process exited = new ProcessBuilder("true").start();
    exited.waitFor();
    String prefix = "weir-jar-store-test-" + System.nanoTime();
    Path temporary = Path.of(System.getProperty("java.io.tmpdir"));
    Path leftover = Files.createDirectory(temporary.resolve(prefix + "-" + exited.pid() + "-1"));
    Files.writeString(leftover.resolve("old.jar"), "old");
    JarStore store = JarStore.temporary(prefix);
    byte[] bytes = "a jar".getBytes(StandardCharsets.UTF_8);

    Path stored = store.store(JobJar.of("job.jar", bytes), bytes);

    assertThat(leftover).doesNotExist();
    assertThat(stored.getParent().getFileName().toString())
        .startsWith(prefix + "-" + ProcessHandle.current().pid() + "-");
    store.deleteAll();
    assertThat(stored.getParent()).doesNotExist();
  }
}
