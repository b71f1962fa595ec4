package io.weir.runtime.task;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Actions other threads ask a task to run on its own thread (checkpoint triggers and notifications,
 * end of job), between records, so no operator is ever called concurrently.
 */
final class Mailbox {
  /** An action run on the task thread. */
  @FunctionalInterface
  interface Mail {
    void run() throws Exception;
  }

  private final Queue<Mail> mails = new ConcurrentLinkedQueue<>();
  private final Runnable wakeUp;

  Mailbox(Runnable wakeUp) {
    this.wakeUp = wakeUp;
  }

  void put(Mail mail) {
    mails.add(mail);
    wakeUp.run();
  }

  boolean isEmpty() {
    return mails.isEmpty();
  }

  /** Runs every mail that is there now, in order. */
  void runAll() throws Exception {
    Mail mail;
    while ((mail = mails.poll()) != null) {
      mail.run();
    }
  }
}
