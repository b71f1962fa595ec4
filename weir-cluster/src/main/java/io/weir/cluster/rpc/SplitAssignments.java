package io.weir.cluster.rpc;

import io.weir.api.source.SourceSplit;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The splits of one {@link ControlMessages.AssignSplits} as bytes. A split's class may come from
 * the job's jar, which the control connection's decoder does not know, so the task manager decodes
 * them with the attempt's class loader, under the allowlist of the job's records.
 */
public final class SplitAssignments {
  private SplitAssignments() {}

  /** Java serialization of the splits, in their order. */
  public static byte[] encode(List<SourceSplit> splits) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(new ArrayList<>(splits));
    } catch (IOException e) {
      throw new IllegalArgumentException("Cannot serialize the splits " + splits + ": " + e, e);
    }
    return bytes.toByteArray();
  }

  /** The splits {@link #encode} wrote, with classes resolved by the job's class loader. */
  @SuppressWarnings("unchecked")
  public static List<SourceSplit> decode(byte[] splits, ClassLoader jobLoader)
      throws IOException, ClassNotFoundException {
    try (ObjectInputStream in =
        new MessageCodec.LoaderObjectInputStream(
            new ByteArrayInputStream(splits), jobLoader, ClassAllowlist.records(jobLoader))) {
      return List.copyOf((List<SourceSplit>) in.readObject());
    }
  }
}
