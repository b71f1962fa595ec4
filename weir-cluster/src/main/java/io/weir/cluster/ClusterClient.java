package io.weir.cluster;

import io.netty.channel.EventLoopGroup;
import io.weir.cluster.rpc.ClientMessages;
import io.weir.cluster.rpc.ClusterConnectException;
import io.weir.cluster.rpc.ClusterTls;
import io.weir.cluster.rpc.EventLoops;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.cluster.rpc.MessageHandler;
import io.weir.cluster.rpc.RpcClient;
import io.weir.cluster.rpc.RpcConnection;
import java.io.Serializable;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The command line's side of the job manager: one request per connection, one answer. Every failure
 * is a {@link ClusterConnectException} or an {@link IllegalArgumentException} whose message is a
 * line for the user.
 */
public final class ClusterClient implements AutoCloseable {
  private static final long ANSWER_TIMEOUT_SECONDS = 180;

  private final HostAndPort jobManager;
  private final String secret;
  private final ClusterTls tls;
  private final EventLoopGroup network = EventLoops.create("weir-client-network", 1);

  public ClusterClient(HostAndPort jobManager, String secret) {
    this(jobManager, secret, ClusterTls.plaintext());
  }

  public ClusterClient(HostAndPort jobManager, String secret, ClusterTls tls) {
    this.jobManager = jobManager;
    this.secret = secret;
    this.tls = tls;
  }

  public ClientMessages.JobStatus submit(io.weir.cluster.rpc.JobSubmission submission)
      throws ClusterConnectException, InterruptedException {
    return submit(submission, null);
  }

  /**
   * Submits a job with the bytes of its jar, which the job manager stores and ships to the task
   * managers.
   */
  public ClientMessages.JobStatus submit(io.weir.cluster.rpc.JobSubmission submission, byte[] jar)
      throws ClusterConnectException, InterruptedException {
    return ask(new ClientMessages.Submit(submission, jar), ClientMessages.JobStatus.class);
  }

  public List<ClientMessages.JobStatus> list()
      throws ClusterConnectException, InterruptedException {
    return ask(new ClientMessages.ListJobs(), ClientMessages.JobList.class).jobs();
  }

  public ClientMessages.JobStatus job(String jobId)
      throws ClusterConnectException, InterruptedException {
    return ask(new ClientMessages.GetJob(jobId), ClientMessages.JobStatus.class);
  }

  /**
   * Cancels the job; with a savepoint directory, returns once the savepoint completed and every
   * sink committed, with the savepoint's directory; else at once, with null.
   */
  public String cancel(String jobId, String savepointDirectory)
      throws ClusterConnectException, InterruptedException {
    Serializable answer =
        ask(new ClientMessages.Cancel(jobId, savepointDirectory), Serializable.class);
    return answer instanceof ClientMessages.SavepointTaken taken ? taken.path() : null;
  }

  /**
   * Stops the job with a savepoint; returns its directory once the job ended FINISHED with nothing
   * pending.
   */
  public String stopWithSavepoint(String jobId, String directory)
      throws ClusterConnectException, InterruptedException {
    return ask(
            new ClientMessages.StopWithSavepoint(jobId, directory),
            ClientMessages.SavepointTaken.class)
        .path();
  }

  public String savepoint(String jobId, String directory)
      throws ClusterConnectException, InterruptedException {
    return ask(
            new ClientMessages.TakeSavepoint(jobId, directory), ClientMessages.SavepointTaken.class)
        .path();
  }

  public List<String> checkpoints(String jobId)
      throws ClusterConnectException, InterruptedException {
    return ask(new ClientMessages.ListCheckpoints(jobId), ClientMessages.CheckpointList.class)
        .lines();
  }

  /** The job manager's address and pid, and its task managers with their slots in use. */
  public ClientMessages.Members members() throws ClusterConnectException, InterruptedException {
    return ask(new ClientMessages.ListMembers(), ClientMessages.Members.class);
  }

  private <T> T ask(ClientMessages.Request request, Class<T> answerType)
      throws ClusterConnectException, InterruptedException {
    CompletableFuture<Object> answer = new CompletableFuture<>();
    MessageHandler handler =
        new MessageHandler() {
          @Override
          public void onMessage(RpcConnection connection, Object message) {
            answer.complete(message);
          }

          @Override
          public void onClosed(RpcConnection connection) {
            answer.completeExceptionally(new IllegalStateException("connection closed"));
          }
        };
    RpcConnection connection =
        RpcClient.connect(network, "the job manager", jobManager, "client", secret, tls, handler);
    try {
      connection.send(request);
      Object reply = answer.get(ANSWER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      if (reply instanceof ClientMessages.RequestFailed failed) {
        throw new IllegalArgumentException(failed.reason());
      }
      return answerType.cast(reply);
    } catch (ExecutionException | TimeoutException e) {
      throw new ClusterConnectException(
          "The job manager at " + jobManager + " did not answer: " + e.getMessage(), e);
    } finally {
      connection.close();
    }
  }

  @Override
  public void close() {
    network.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }
}
