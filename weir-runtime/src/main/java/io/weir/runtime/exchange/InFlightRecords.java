package io.weir.runtime.exchange;

import io.weir.api.state.StateSerializer;
import io.weir.runtime.exchange.StreamEvent.CheckpointBarrier;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The records (and watermark events) an unaligned checkpoint found in flight on a task's input
 * channels, as operator list state of the task's head operator: one list per channel, named {@link
 * #STATE_PREFIX}, the channel index and the task's channel count (and, in a task with two inputs,
 * the channel's input), one element per record, in the order the channel delivered them. Records go
 * through their channel's declared serializer, else Java serialization. A restore at another
 * parallelism gives every new subtask the lists of all old subtasks ({@link #forRescaledRestore}),
 * and each replays the records that are now its own.
 */
public final class InFlightRecords {
  /** List states whose names start with this hold records in flight, not operator state. */
  public static final String STATE_PREFIX = "weir.in-flight.";

  private static final String CHANNEL = "channel-";
  private static final String RESCALED = "rescaled.subtask-";
  private static final String INPUT = ".input-";
  private static final String OUTPUT = "output.edge-";
  private static final String TARGET = ".target-";

  private static final byte RECORD = 0;
  private static final byte WATERMARK = 1;
  private static final byte IDLE = 2;
  private static final byte ACTIVE = 3;
  private static final byte END_OF_DATA = 4;

  private final List<StateSerializer<?>> serializers;
  private final int firstInputChannels;

  /**
   * For a task with one input.
   *
   * @param serializers by channel, the records' declared serializer or null
   */
  public InFlightRecords(List<StateSerializer<?>> serializers) {
    this(serializers, serializers.size());
  }

  /**
   * @param serializers by channel, the records' declared serializer or null
   * @param firstInputChannels how many channels, from channel 0, carry the first input: all of them
   *     in a task with one input
   */
  public InFlightRecords(List<StateSerializer<?>> serializers, int firstInputChannels) {
    this.serializers = serializers;
    this.firstInputChannels = firstInputChannels;
  }

  private boolean twoInputs() {
    return firstInputChannels < serializers.size();
  }

  int channels() {
    return serializers.size();
  }

  /**
   * The bytes {@code record} of {@code channel} takes encoded as in flight, or -1 when it cannot be
   * encoded (it is sized for a gauge, which must not fail the task).
   */
  int encodedSize(int channel, Object record) {
    try {
      return encode(serializer(channel), record, 0).length;
    } catch (RuntimeException e) {
      return -1;
    }
  }

  /** Whether list state {@code name} holds records in flight. */
  public static boolean isInFlightState(String name) {
    return name.startsWith(STATE_PREFIX);
  }

  /**
   * The list state of a channel's records in flight, in a task with these serializers' channels. A
   * task with two inputs names the channel's input too, so that a restore at another parallelism,
   * where channel indexes name other senders, still knows it.
   */
  public String stateName(int channel) {
    String name = STATE_PREFIX + CHANNEL + channel + "-of-" + serializers.size();
    return twoInputs() ? name + INPUT + (channel < firstInputChannels ? 1 : 2) : name;
  }

  /** Decides which records in flight of an old subtask a new subtask replays after a rescale. */
  public interface RescaledRouting {
    /**
     * @param input 1 or 2, the input of the task the record came on
     */
    boolean replays(int oldSubtask, int input, Object record) throws Exception;
  }

  /**
   * For a restore at another parallelism: the records in flight of every old subtask (by index in
   * the list), renamed by old subtask, for each new subtask to pick its own from.
   */
  public static Map<String, List<byte[]>> forRescaledRestore(
      List<Map<String, List<byte[]>>> oldListStates) {
    Map<String, List<byte[]>> rescaled = new TreeMap<>();
    for (int subtask = 0; subtask < oldListStates.size(); subtask++) {
      for (Map.Entry<String, List<byte[]>> list : oldListStates.get(subtask).entrySet()) {
        String name = list.getKey();
        if (isInFlightState(name) && !name.startsWith(STATE_PREFIX + RESCALED)) {
          rescaled.put(
              STATE_PREFIX + RESCALED + subtask + "." + name.substring(STATE_PREFIX.length()),
              list.getValue());
        }
      }
    }
    return rescaled;
  }

  /** The list states without the records in flight. */
  public static Map<String, List<byte[]>> withoutInFlight(Map<String, List<byte[]>> listStates) {
    Map<String, List<byte[]>> rest = new TreeMap<>(listStates);
    rest.keySet().removeIf(InFlightRecords::isInFlightState);
    return rest;
  }

  /**
   * Adds the records and events of {@code batch} to {@code into}, encoded (now, as an operator may
   * change a record object after it processed it), leaving out barriers: a gate announces a barrier
   * only when it ends its batch, so every other element of the batch precedes it.
   *
   * @return the bytes added
   */
  public long encode(Batch batch, List<byte[]> into) {
    long bytes = 0;
    for (int i = 0; i < batch.size(); i++) {
      Object value = batch.value(i);
      if (value instanceof CheckpointBarrier) {
        continue;
      }
      byte[] element = encode(serializer(batch.channel()), value, batch.timestamp(i));
      into.add(element);
      bytes += element.length;
    }
    return bytes;
  }

  private static byte[] encode(StateSerializer<Object> serializer, Object value, long timestamp) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      if (value instanceof StreamEvent.Watermark watermark) {
        out.writeByte(WATERMARK);
        out.writeLong(watermark.timestamp());
      } else if (value instanceof StreamEvent.WatermarkStatus status) {
        out.writeByte(status.idle() ? IDLE : ACTIVE);
      } else if (value instanceof StreamEvent.EndOfData) {
        out.writeByte(END_OF_DATA);
      } else {
        out.writeByte(RECORD);
        out.writeLong(timestamp);
        out.write(serializer.serialize(value));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /**
   * The batches to replay, one per channel that had records in flight, from the head operator's
   * restored list states; other list states are left alone.
   *
   * @throws IllegalStateException if the records were stored by a task with another channel count
   *     (an upstream operator's parallelism changed), as channel indexes no longer name the same
   *     senders
   */
  public List<Batch> decode(Map<String, List<byte[]>> listStates, RescaledRouting routing)
      throws Exception {
    Map<Integer, List<byte[]>> byChannel = new TreeMap<>();
    List<Batch> batches = new ArrayList<>();
    for (Map.Entry<String, List<byte[]>> list : new TreeMap<>(listStates).entrySet()) {
      if (list.getKey().startsWith(STATE_PREFIX + RESCALED)
          && !list.getKey().contains("." + OUTPUT)) {
        batches.add(
            rescaled(list.getKey().substring(STATE_PREFIX.length()), list.getValue(), routing));
      }
    }
    listStates.forEach(
        (name, elements) -> {
          if (name.startsWith(STATE_PREFIX + CHANNEL)
              && !name.startsWith(STATE_PREFIX + RESCALED)
              && !elements.isEmpty()) {
            String channelName = name.substring((STATE_PREFIX + CHANNEL).length());
            int input = channelName.indexOf(INPUT);
            String[] channelOfCount =
                (input < 0 ? channelName : channelName.substring(0, input)).split("-of-");
            int count = Integer.parseInt(channelOfCount[1]);
            if (count != serializers.size()) {
              throw new IllegalStateException(
                  "The checkpoint holds records in flight on "
                      + count
                      + " input channels, but the task now has "
                      + serializers.size()
                      + "; restore an unaligned checkpoint with the parallelism it was taken with");
            }
            byChannel.put(Integer.parseInt(channelOfCount[0]), elements);
          }
        });
    byChannel.forEach(
        (channel, elements) -> batches.add(decode(channel, serializer(channel), elements)));
    return batches;
  }

  /**
   * The records of one old subtask's channel that {@code routing} gives this subtask, on the first
   * channel of their input: after a rescale channel indexes name other senders, and events are left
   * out (the restored senders emit watermarks and the end of their input again).
   */
  private Batch rescaled(String name, List<byte[]> elements, RescaledRouting routing)
      throws Exception {
    int oldSubtask =
        Integer.parseInt(name.substring(RESCALED.length(), name.indexOf('.', RESCALED.length())));
    int inputAt = name.indexOf(INPUT);
    int input = inputAt < 0 ? 1 : Integer.parseInt(name.substring(inputAt + INPUT.length()));
    if (twoInputs() && inputAt < 0) {
      throw new IllegalStateException(
          "The records in flight of old subtask "
              + oldSubtask
              + " do not say which input they came on (written by an older build); restore the"
              + " unaligned checkpoint with the parallelism it was taken with");
    }
    int channel = input == 1 ? 0 : firstInputChannels;
    Batch all = decode(channel, serializer(channel), elements);
    List<Object> values = new ArrayList<>();
    List<Long> timestamps = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      Object value = all.value(i);
      if (!(value instanceof StreamEvent) && routing.replays(oldSubtask, input, value)) {
        values.add(value);
        timestamps.add(all.timestamp(i));
      }
    }
    return Batch.of(
        channel, values.toArray(), timestamps.stream().mapToLong(Long::longValue).toArray());
  }

  private static Batch decode(
      int channel, StateSerializer<Object> serializer, List<byte[]> elements) {
    Object[] values = new Object[elements.size()];
    long[] timestamps = new long[elements.size()];
    for (int i = 0; i < values.length; i++) {
      byte[] element = elements.get(i);
      try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(element))) {
        byte tag = in.readByte();
        timestamps[i] = Long.MIN_VALUE;
        values[i] =
            switch (tag) {
              case WATERMARK -> new StreamEvent.Watermark(in.readLong());
              case IDLE -> StreamEvent.IDLE;
              case ACTIVE -> StreamEvent.ACTIVE;
              case END_OF_DATA -> StreamEvent.END_OF_DATA;
              case RECORD -> {
                timestamps[i] = in.readLong();
                yield serializer.deserialize(in.readAllBytes());
              }
              default ->
                  throw new IllegalStateException(
                      "Unknown element tag "
                          + tag
                          + " in the records in flight of channel "
                          + channel);
            };
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return Batch.of(channel, values, timestamps);
  }

  /**
   * The list state of the records that a checkpoint barrier overtook in a task's output: those the
   * task had emitted to {@code target} over its output edge {@code edge} and not yet handed over.
   */
  public static String outputStateName(int edge, int target) {
    return STATE_PREFIX + OUTPUT + edge + TARGET + target;
  }

  /**
   * The output records of an old subtask, from its list states (named by {@link #outputStateName},
   * renamed by old subtask after a rescale), by edge, in the order they were emitted to each
   * target; {@code replays} says which old subtasks' records this subtask emits again.
   */
  public static Map<Integer, List<OutputRecords>> decodeOutput(
      Map<String, List<byte[]>> listStates,
      List<? extends StateSerializer<?>> edgeSerializers,
      java.util.function.IntPredicate replays) {
    Map<Integer, List<OutputRecords>> byEdge = new TreeMap<>();
    for (Map.Entry<String, List<byte[]>> list : new TreeMap<>(listStates).entrySet()) {
      String name = list.getKey();
      int at = name.indexOf(OUTPUT);
      if (!isInFlightState(name) || at < 0 || list.getValue().isEmpty()) {
        continue;
      }
      int oldSubtask = -1;
      if (name.startsWith(STATE_PREFIX + RESCALED)) {
        int from = (STATE_PREFIX + RESCALED).length();
        oldSubtask = Integer.parseInt(name.substring(from, name.indexOf('.', from)));
      }
      if (oldSubtask >= 0 && !replays.test(oldSubtask)) {
        continue;
      }
      String edgeAndTarget = name.substring(at + OUTPUT.length());
      int edge = Integer.parseInt(edgeAndTarget.substring(0, edgeAndTarget.indexOf(TARGET)));
      int target =
          Integer.parseInt(
              edgeAndTarget.substring(edgeAndTarget.indexOf(TARGET) + TARGET.length()));
      @SuppressWarnings("unchecked")
      StateSerializer<Object> serializer =
          (StateSerializer<Object>)
              (edgeSerializers.get(edge) != null
                  ? edgeSerializers.get(edge)
                  : StateSerializer.java());
      byEdge
          .computeIfAbsent(edge, e -> new ArrayList<>())
          .add(new OutputRecords(target, oldSubtask >= 0, decode(0, serializer, list.getValue())));
    }
    return byEdge;
  }

  /**
   * Records a barrier overtook on their way to one target of an edge.
   *
   * @param rescaled whether they come from an old subtask of a restore at another parallelism
   */
  public record OutputRecords(int target, boolean rescaled, Batch records) {}

  /**
   * Encodes, with {@code serializer} (else Java serialization), the records and events of batches
   * that a checkpoint barrier overtook in a task's output.
   *
   * @return the bytes added
   */
  public static long encodeOutput(
      StateSerializer<?> serializer, List<Batch> batches, List<byte[]> into) {
    @SuppressWarnings("unchecked")
    StateSerializer<Object> declared =
        (StateSerializer<Object>) (serializer != null ? serializer : StateSerializer.java());
    long bytes = 0;
    for (Batch batch : batches) {
      for (int i = 0; i < batch.size(); i++) {
        byte[] element = encode(declared, batch.value(i), batch.timestamp(i));
        into.add(element);
        bytes += element.length;
      }
    }
    return bytes;
  }

  @SuppressWarnings("unchecked")
  private StateSerializer<Object> serializer(int channel) {
    StateSerializer<?> declared = channel < serializers.size() ? serializers.get(channel) : null;
    return (StateSerializer<Object>) (declared != null ? declared : StateSerializer.java());
  }
}
