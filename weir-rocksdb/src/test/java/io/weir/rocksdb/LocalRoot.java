package io.weir.rocksdb;

import io.weir.runtime.checkpoint.storage.Directories;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Points this JVM's RocksDB working directories at a folder of one test's own, so that tests
 * neither share nor clean up each other's databases; puts the setting back after the test.
 */
final class LocalRoot implements BeforeEachCallback, AfterEachCallback {
  private Path directory;
  private String previous;

  /** The folder of the running test; valid between its before- and after-each callbacks. */
  Path directory() {
    return directory;
  }

  @Override
  public void beforeEach(ExtensionContext context) throws IOException {
    directory = Files.createTempDirectory("weir-rocksdb-local");
    previous = System.setProperty(LocalWorkingDirectories.ROOT_PROPERTY, directory.toString());
  }

  @Override
  public void afterEach(ExtensionContext context) throws IOException {
    if (previous == null) {
      System.clearProperty(LocalWorkingDirectories.ROOT_PROPERTY);
    } else {
      System.setProperty(LocalWorkingDirectories.ROOT_PROPERTY, previous);
    }
    Directories.deleteRecursively(directory);
  }
}
