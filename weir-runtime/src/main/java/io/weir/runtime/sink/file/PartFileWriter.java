package io.weir.runtime.sink.file;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** The open part file of the current transaction: buffered writes, counted bytes, fsync. */
final class PartFileWriter {
  private static final int BUFFER_BYTES = 64 * 1024;

  private final Path path;
  private final FileChannel channel;
  private final CountingOutputStream out;

  private PartFileWriter(Path path, FileChannel channel) {
    this.path = path;
    this.channel = channel;
    this.out =
        new CountingOutputStream(
            new BufferedOutputStream(Channels.newOutputStream(channel), BUFFER_BYTES));
  }

  /** Creates the file; it must not exist, so a name is never written twice. */
  static PartFileWriter create(Path path) {
    try {
      return new PartFileWriter(
          path, FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create part file " + path + ": " + e, e);
    }
  }

  <T> void write(T record, RecordEncoder<? super T> encoder) throws IOException {
    encoder.encode(record, out);
  }

  long bytesWritten() {
    return out.count;
  }

  /** Flushes, forces the bytes to disk, and closes. */
  void syncAndClose() throws IOException {
    try (channel) {
      out.flush();
      channel.force(true);
    }
  }

  /** Closes without caring for the content, which is about to be deleted. */
  void closeQuietly() {
    try {
      channel.close();
    } catch (IOException e) {
      // Nothing to do: the file is deleted next, and a close failure cannot lose data here.
    }
  }

  Path path() {
    return path;
  }

  private static final class CountingOutputStream extends FilterOutputStream {
    private long count;

    CountingOutputStream(OutputStream out) {
      super(out);
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      count++;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      out.write(bytes, offset, length);
      count += length;
    }
  }
}
