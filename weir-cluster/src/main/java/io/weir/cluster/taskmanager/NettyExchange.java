package io.weir.cluster.taskmanager;

import io.weir.api.state.StateSerializer;
import io.weir.cluster.exchange.InboundGates;
import io.weir.cluster.exchange.OutboundChannels;
import io.weir.cluster.rpc.AttemptId;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.runtime.exchange.BatchReceiver;
import io.weir.runtime.exchange.InputGate;
import io.weir.runtime.exchange.RecordEncoding;
import io.weir.runtime.gateway.SubtaskPlacement;
import io.weir.runtime.taskexecutor.ExchangeTransport;
import java.util.List;
import java.util.Map;

/**
 * The exchange of one attempt on one task manager over the network: its gates are reachable through
 * the task manager's data server, and channels to other task managers are remote channels with
 * credits.
 */
final class NettyExchange implements ExchangeTransport {
  private final AttemptId attempt;
  private final InboundGates inbound;
  private final OutboundChannels outbound;
  private final Map<String, HostAndPort> dataAddresses;

  /**
   * @param dataAddresses where each task manager of the attempt receives records, by its id
   */
  NettyExchange(
      AttemptId attempt,
      InboundGates inbound,
      OutboundChannels outbound,
      Map<String, HostAndPort> dataAddresses) {
    this.attempt = attempt;
    this.inbound = inbound;
    this.outbound = outbound;
    this.dataAddresses = Map.copyOf(dataAddresses);
  }

  @Override
  public void registerGate(
      String vertexId, int subtask, InputGate gate, List<StateSerializer<?>> serializers) {
    inbound.register(attempt, vertexId, subtask, gate, serializers);
  }

  @Override
  public BatchReceiver channelTo(SubtaskPlacement target, int channel, RecordEncoding encoding)
      throws Exception {
    return outbound.channel(
        dataAddresses.get(target.taskManagerId()),
        target.vertexId(),
        target.subtask(),
        channel,
        encoding);
  }

  /** The sender's credits and the batch it fills. */
  @Override
  public int batchesInFlightPerRemoteChannel() {
    return OutboundChannels.CREDITS_PER_CHANNEL + 1;
  }

  @Override
  public void close() {
    inbound.unregister(attempt);
    outbound.close();
  }
}
