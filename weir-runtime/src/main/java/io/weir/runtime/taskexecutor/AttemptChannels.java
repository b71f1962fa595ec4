package io.weir.runtime.taskexecutor;

import io.weir.api.checkpoint.CheckpointingMode;
import io.weir.api.datastream.JobConfig;
import io.weir.api.graph.Partitioning;
import io.weir.api.state.StateSerializer;
import io.weir.runtime.checkpoint.SubtaskKey;
import io.weir.runtime.exchange.BarrierOrder;
import io.weir.runtime.exchange.BatchReceiver;
import io.weir.runtime.exchange.ChannelCredit;
import io.weir.runtime.exchange.ChannelSelector;
import io.weir.runtime.exchange.InputGate;
import io.weir.runtime.exchange.RecordEncoding;
import io.weir.runtime.exchange.RecordWriter;
import io.weir.runtime.gateway.AttemptDeployment;
import io.weir.runtime.gateway.SubtaskPlacement;
import io.weir.runtime.graph.JobEdge;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.graph.JobVertex;
import io.weir.runtime.task.OutputEdge;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The channels between the subtasks of one attempt, as one task manager lays them out: an input
 * gate for each of its subtasks that has inputs (registered with the exchange, so that senders on
 * other task managers reach it), and each of its subtasks' output edges, which write to the gates
 * of subtasks here or through the exchange to the others. A gate's channels follow its vertex's
 * inputs in order, one channel per upstream subtask. Used by the thread that creates the attempt's
 * subtasks, while it creates them.
 */
final class AttemptChannels {
  /**
   * Records per batch between tasks, the ceiling of a channel's credit: enough to amortize a
   * hand-over, small enough for latency.
   */
  private static final int BATCH_SIZE = 512;

  /**
   * Batches a gate holds: one per input channel, this many at least. No more, because a barrier
   * waits behind what the gate holds: while the code is cold, eight batches took a sink some 100
   * ms, which the first output's checkpoint waited for.
   */
  private static final int GATE_MIN_BATCHES = 4;

  private final String taskManagerId;
  private final JobGraph graph;
  private final AttemptDeployment deployment;
  private final ExchangeTransport exchange;
  private final Map<SubtaskKey, InputGate> gates;

  /** Creates the gates of the subtasks on {@code taskManagerId} and registers them. */
  AttemptChannels(
      String taskManagerId,
      JobGraph graph,
      AttemptDeployment deployment,
      ExchangeTransport exchange) {
    this.taskManagerId = taskManagerId;
    this.graph = graph;
    this.deployment = deployment;
    this.exchange = exchange;
    this.gates = createGates();
  }

  /** The gate of a subtask here, or null for a source. */
  InputGate gateOf(JobVertex vertex, int subtask) {
    return gates.get(new SubtaskKey(vertex.id(), subtask));
  }

  /** Whether the subtask runs on this task manager. */
  boolean isLocal(JobVertex vertex, int subtask) {
    return deployment.taskManagerOf(vertex.id(), subtask).equals(taskManagerId);
  }

  private Map<SubtaskKey, InputGate> createGates() {
    Map<SubtaskKey, InputGate> gates = new HashMap<>();
    for (JobVertex vertex : graph.vertices()) {
      List<StateSerializer<?>> serializers = serializersByChannel(vertex);
      int channels = serializers.size();
      for (int i = 0; i < vertex.parallelism(); i++) {
        if (!vertex.isSource() && isLocal(vertex, i)) {
          int capacity = Math.max(GATE_MIN_BATCHES, channels);
          ChannelCredit credit =
              ChannelCredit.adaptive(
                  graph.config().inFlightDataTarget(),
                  BATCH_SIZE,
                  capacity + sendersBatchesInFlightTo(vertex),
                  System::nanoTime);
          InputGate gate = new InputGate(channels, capacity, barrierOrder(), serializers, credit);
          gates.put(new SubtaskKey(vertex.id(), i), gate);
          exchange.registerGate(vertex.id(), i, gate, serializers);
        }
      }
    }
    return gates;
  }

  /**
   * The batches the vertex's senders may have in flight to one of its gates besides those the gate
   * holds: one per channel that a sender here fills or hands over, and per channel from another
   * task manager what the exchange lets it have on their way.
   */
  private int sendersBatchesInFlightTo(JobVertex vertex) {
    int batches = 0;
    for (JobEdge input : graph.inputsOf(vertex)) {
      JobVertex source = input.source();
      for (int i = 0; i < source.parallelism(); i++) {
        batches += isLocal(source, i) ? 1 : exchange.batchesInFlightPerRemoteChannel();
      }
    }
    return batches;
  }

  /** Barriers overtake queued records only where exactly-once checkpoints may be unaligned. */
  private BarrierOrder barrierOrder() {
    JobConfig config = graph.config();
    return config.unalignedCheckpoints()
            && config.checkpointingMode() == CheckpointingMode.EXACTLY_ONCE
        ? BarrierOrder.OVERTAKING
        : BarrierOrder.IN_LINE;
  }

  /**
   * The serializer of each input channel of the vertex's gates (null where none was declared): the
   * inputs are laid out in order, a channel per upstream subtask, as {@link #channelOffset}.
   */
  private List<StateSerializer<?>> serializersByChannel(JobVertex vertex) {
    List<StateSerializer<?>> serializers = new ArrayList<>();
    for (JobEdge input : graph.inputsOf(vertex)) {
      for (int i = 0; i < input.source().parallelism(); i++) {
        serializers.add(input.serializer());
      }
    }
    return Collections.unmodifiableList(serializers);
  }

  /** The output edges of a subtask here, each writing to every subtask of its target. */
  List<OutputEdge> outputsOf(JobVertex vertex, int subtask) throws Exception {
    List<OutputEdge> outputs = new ArrayList<>();
    for (JobEdge edge : graph.outputsOf(vertex)) {
      JobVertex target = edge.target();
      int channel = channelOffset(edge) + subtask;
      List<BatchReceiver> receivers = new ArrayList<>();
      for (int t = 0; t < target.parallelism(); t++) {
        if (isLocal(target, t)) {
          receivers.add(gates.get(new SubtaskKey(target.id(), t)));
        } else {
          SubtaskPlacement placement =
              new SubtaskPlacement(target.id(), t, deployment.taskManagerOf(target.id(), t));
          RecordEncoding encoding =
              new RecordEncoding(
                  edge.serializer(),
                  graph.config().javaSerializedTypes(),
                  vertex.chain().get(vertex.chain().size() - 1).displayName());
          receivers.add(exchange.channelTo(placement, channel, encoding));
        }
      }
      RecordWriter writer =
          new RecordWriter(selectorOf(edge, subtask), receivers, channel, BATCH_SIZE);
      outputs.add(
          new OutputEdge(
              writer,
              edge.sideOutput(),
              edge.serializer(),
              edge.partitioning() instanceof Partitioning.Broadcast));
    }
    return outputs;
  }

  /** The channels of a two-input vertex's gate that carry its first input: they come first. */
  int firstInputChannels(JobVertex vertex) {
    List<JobEdge> inputs = graph.inputsOf(vertex);
    int channels = 0;
    for (int i = 0; i < vertex.firstInputs(); i++) {
      channels += inputs.get(i).source().parallelism();
    }
    return channels;
  }

  /** The first channel of {@code edge} in its target's gate: the inputs are laid out in order. */
  private int channelOffset(JobEdge edge) {
    int offset = 0;
    for (JobEdge input : graph.inputsOf(edge.target())) {
      if (input == edge) {
        break;
      }
      offset += input.source().parallelism();
    }
    return offset;
  }

  private ChannelSelector selectorOf(JobEdge edge, int subtask) {
    int targets = edge.target().parallelism();
    if (edge.partitioning() instanceof Partitioning.Hash hash) {
      return ChannelSelector.byKeyGroup(
          hash.keySelector(), graph.config().maxParallelism(), targets);
    } else if (edge.partitioning() instanceof Partitioning.Broadcast) {
      return ChannelSelector.broadcast();
    } else if (edge.partitioning() instanceof Partitioning.Rebalance) {
      return ChannelSelector.rebalance(subtask, targets);
    }
    return ChannelSelector.forward(subtask);
  }
}
