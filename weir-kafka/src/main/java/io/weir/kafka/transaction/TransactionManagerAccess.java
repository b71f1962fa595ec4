package io.weir.kafka.transaction;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * Reads and sets the private transaction state of a {@link KafkaProducer}, written against
 * kafka-clients 4.4. The public producer API cannot continue a transaction that another instance
 * began; this class is the only place that reaches into the client, and it fails with the name of
 * the missing field when the client's internals differ.
 */
final class TransactionManagerAccess {
  private static final String SUPPORTED_CLIENT = "4.4";

  private final Object transactionManager;

  TransactionManagerAccess(KafkaProducer<?, ?> producer) {
    Object manager = read(producer, "transactionManager");
    if (manager == null) {
      throw new IllegalArgumentException(
          "the producer has no transactional.id, so it has no transaction to read or resume");
    }
    this.transactionManager = manager;
  }

  String transactionalId() {
    return (String) read(transactionManager, "transactionalId");
  }

  PendingTransaction current() {
    synchronized (transactionManager) {
      Object producerIdAndEpoch = read(transactionManager, "producerIdAndEpoch");
      return new PendingTransaction(
          transactionalId(),
          (long) read(producerIdAndEpoch, "producerId"),
          (short) read(producerIdAndEpoch, "epoch"));
    }
  }

  String state() {
    return String.valueOf(read(transactionManager, "currentState"));
  }

  boolean isTransactionV2Enabled() {
    return (boolean) read(transactionManager, "isTransactionV2Enabled");
  }

  /**
   * Makes the (uninitialised) producer the owner of {@code transaction}: the transaction manager
   * takes its producer id and epoch and believes a transaction is under way, so that {@code
   * commitTransaction()} sends EndTxn for it. The client must already know the broker's API
   * versions, or its protocol-version-2 flag cannot be synchronised.
   */
  void resume(PendingTransaction transaction) {
    synchronized (transactionManager) {
      if (!"UNINITIALIZED".equals(state())) {
        throw new IllegalStateException(
            "cannot resume transaction "
                + transaction
                + ": the producer is in state "
                + state()
                + "; use a new producer on which initTransactions() was not called");
      }
      Field idAndEpochField = field(transactionManager.getClass(), "producerIdAndEpoch");
      write(idAndEpochField, newProducerIdAndEpoch(idAndEpochField.getType(), transaction));
      write(field(transactionManager.getClass(), "currentState"), inTransactionState());
      // Without this, commitTransaction() returns normally and sends nothing.
      write(field(transactionManager.getClass(), "transactionStarted"), true);
      invoke("maybeUpdateTransactionV2Enabled", true);
    }
  }

  private Object inTransactionState() {
    Class<?> stateType = field(transactionManager.getClass(), "currentState").getType();
    for (Object state : stateType.getEnumConstants()) {
      if ("IN_TRANSACTION".equals(((Enum<?>) state).name())) {
        return state;
      }
    }
    throw unsupported("state IN_TRANSACTION of " + stateType.getName(), null);
  }

  private static Object newProducerIdAndEpoch(Class<?> type, PendingTransaction transaction) {
    try {
      return type.getConstructor(long.class, short.class)
          .newInstance(transaction.producerId(), transaction.epoch());
    } catch (ReflectiveOperationException e) {
      throw unsupported("constructor (long, short) of " + type.getName(), e);
    }
  }

  private void invoke(String methodName, boolean argument) {
    try {
      Method method = transactionManager.getClass().getMethod(methodName, boolean.class);
      method.invoke(transactionManager, argument);
    } catch (NoSuchMethodException | IllegalAccessException e) {
      throw unsupported("method " + methodName + "(boolean) of TransactionManager", e);
    } catch (InvocationTargetException e) {
      throw new IllegalStateException(methodName + " failed", e.getCause());
    }
  }

  private void write(Field field, Object value) {
    try {
      field.set(transactionManager, value);
    } catch (IllegalAccessException e) {
      throw unsupported("field " + field.getName() + " of TransactionManager", e);
    }
  }

  private static Object read(Object owner, String name) {
    try {
      return field(owner.getClass(), name).get(owner);
    } catch (IllegalAccessException e) {
      throw unsupported("field " + name + " of " + owner.getClass().getName(), e);
    }
  }

  private static Field field(Class<?> type, String name) {
    try {
      Field field = type.getDeclaredField(name);
      field.setAccessible(true);
      return field;
    } catch (NoSuchFieldException | RuntimeException e) {
      throw unsupported("field " + name + " of " + type.getName(), e);
    }
  }

  /** Read from the client jar's own resource: the class that reports it moved between versions. */
  private static String clientVersion() {
    try (InputStream in =
        KafkaProducer.class.getResourceAsStream("/kafka/kafka-version.properties")) {
      Properties properties = new Properties();
      if (in != null) {
        properties.load(in);
      }
      return properties.getProperty("version", "(unknown version)");
    } catch (IOException e) {
      return "(unknown version)";
    }
  }

  private static UnsupportedKafkaClientException unsupported(String what, Throwable cause) {
    return new UnsupportedKafkaClientException(
        "cannot resume Kafka transactions with kafka-clients "
            + clientVersion()
            + ": "
            + what
            + " is missing (Weir supports kafka-clients "
            + SUPPORTED_CLIENT
            + ")",
        cause);
  }
}
