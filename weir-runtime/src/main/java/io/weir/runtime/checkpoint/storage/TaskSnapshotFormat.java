package io.weir.runtime.checkpoint.storage;

import io.weir.runtime.state.OperatorSubtaskState;
import io.weir.runtime.state.TaskSnapshot;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The binary form of a {@link TaskSnapshot} in a state file.
 *
 * <pre>
 * int magic "WEIR", int version 1, int operatorCount, then per operator:
 *   string uid, lists, lists (union), int keyGroupCount, (int keyGroup, bytes state)*
 * lists  = int count, (string name, int elementCount, bytes element*)*
 * string = bytes of UTF-8;  bytes = int length, byte*
 * </pre>
 *
 * Every count and length is checked against the bytes that remain, so a corrupt file fails with a
 * reason instead of an attempt to allocate gigabytes. Iteration order of maps and lists is kept.
 */
public final class TaskSnapshotFormat {
  static final int MAGIC = 0x57454952;
  static final int VERSION = 1;

  private TaskSnapshotFormat() {}

  public static void write(TaskSnapshot snapshot, DataOutput out) throws IOException {
    out.writeInt(MAGIC);
    out.writeInt(VERSION);
    out.writeInt(snapshot.operators().size());
    for (Map.Entry<String, OperatorSubtaskState> operator : snapshot.operators().entrySet()) {
      writeString(operator.getKey(), out);
      OperatorSubtaskState state = operator.getValue();
      writeLists(state.listStates(), out);
      writeLists(state.unionStates(), out);
      out.writeInt(state.keyGroups().size());
      for (Map.Entry<Integer, byte[]> keyGroup : state.keyGroups().entrySet()) {
        out.writeInt(keyGroup.getKey());
        writeBytes(keyGroup.getValue(), out);
      }
    }
  }

  public static byte[] toBytes(TaskSnapshot snapshot) {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(buffer)) {
      write(snapshot, out);
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory failed", e);
    }
    return buffer.toByteArray();
  }

  /**
   * Decodes a whole state file.
   *
   * @throws IOException with a one-phrase reason when the bytes are not a valid snapshot
   */
  public static TaskSnapshot read(byte[] bytes) throws IOException {
    ByteArrayInputStream buffer = new ByteArrayInputStream(bytes);
    DataInputStream in = new DataInputStream(buffer);
    try {
      int magic = in.readInt();
      if (magic != MAGIC) {
        throw new IOException("not a Weir state file (bad magic number)");
      }
      int version = in.readInt();
      if (version != VERSION) {
        throw new IOException("state format version " + version + " is not supported");
      }
      int operatorCount = readCount(in, buffer);
      Map<String, OperatorSubtaskState> operators = new LinkedHashMap<>();
      for (int i = 0; i < operatorCount; i++) {
        String uid = readString(in, buffer);
        operators.put(uid, readOperator(in, buffer));
      }
      if (buffer.available() > 0) {
        throw new IOException(buffer.available() + " unexpected bytes after the state");
      }
      return new TaskSnapshot(Collections.unmodifiableMap(operators));
    } catch (EOFException e) {
      throw new IOException("state ends early", e);
    }
  }

  private static OperatorSubtaskState readOperator(DataInputStream in, ByteArrayInputStream buffer)
      throws IOException {
    Map<String, List<byte[]>> listStates = readLists(in, buffer);
    Map<String, List<byte[]>> unionStates = readLists(in, buffer);
    int keyGroupCount = readCount(in, buffer);
    Map<Integer, byte[]> keyGroups = new LinkedHashMap<>();
    for (int i = 0; i < keyGroupCount; i++) {
      int keyGroup = in.readInt();
      keyGroups.put(keyGroup, readBytes(in, buffer));
    }
    return new OperatorSubtaskState(
        listStates, unionStates, Collections.unmodifiableMap(keyGroups));
  }

  private static void writeLists(Map<String, List<byte[]>> lists, DataOutput out)
      throws IOException {
    out.writeInt(lists.size());
    for (Map.Entry<String, List<byte[]>> list : lists.entrySet()) {
      writeString(list.getKey(), out);
      out.writeInt(list.getValue().size());
      for (byte[] element : list.getValue()) {
        writeBytes(element, out);
      }
    }
  }

  private static Map<String, List<byte[]>> readLists(
      DataInputStream in, ByteArrayInputStream buffer) throws IOException {
    int count = readCount(in, buffer);
    Map<String, List<byte[]>> lists = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      String name = readString(in, buffer);
      int elementCount = readCount(in, buffer);
      List<byte[]> elements = new ArrayList<>(elementCount);
      for (int j = 0; j < elementCount; j++) {
        elements.add(readBytes(in, buffer));
      }
      lists.put(name, Collections.unmodifiableList(elements));
    }
    return Collections.unmodifiableMap(lists);
  }

  private static void writeString(String text, DataOutput out) throws IOException {
    writeBytes(text.getBytes(StandardCharsets.UTF_8), out);
  }

  private static String readString(DataInputStream in, ByteArrayInputStream buffer)
      throws IOException {
    return new String(readBytes(in, buffer), StandardCharsets.UTF_8);
  }

  private static void writeBytes(byte[] bytes, DataOutput out) throws IOException {
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  private static byte[] readBytes(DataInputStream in, ByteArrayInputStream buffer)
      throws IOException {
    int length = readCount(in, buffer);
    byte[] bytes = new byte[length];
    in.readFully(bytes);
    return bytes;
  }

  /** A count or length: every counted item takes at least one byte, so it cannot exceed them. */
  private static int readCount(DataInputStream in, ByteArrayInputStream buffer) throws IOException {
    int count = in.readInt();
    if (count < 0 || count > buffer.available()) {
      throw new IOException(
          "length " + count + " does not fit the " + buffer.available() + " remaining bytes");
    }
    return count;
  }
}
