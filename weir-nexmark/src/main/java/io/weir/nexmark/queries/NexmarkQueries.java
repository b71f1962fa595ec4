package io.weir.nexmark.queries;

import java.util.List;
import java.util.Optional;

/** The Nexmark queries, by name. */
public final class NexmarkQueries {
  private static final List<NexmarkQuery<?>> ALL =
      List.of(
          new Query0(),
          new Query1(),
          new Query2(),
          new Query3(),
          new Query4(),
          new Query5(),
          new Query6(),
          new Query7(),
          new Query8(),
          new Query9(),
          new Query10(),
          new Query11(),
          new Query12(),
          new Query13(),
          new Query14(),
          new Query15(),
          new Query16(),
          new Query17(),
          new Query18(),
          new Query19(),
          new Query20(),
          new Query21(),
          new Query22());

  private NexmarkQueries() {}

  public static List<NexmarkQuery<?>> all() {
    return ALL;
  }

  public static Optional<NexmarkQuery<?>> named(String name) {
    return ALL.stream().filter(query -> query.name().equalsIgnoreCase(name)).findFirst();
  }

  /** The names, for a message that lists them: {@code q0, q1, ...}. */
  public static String names() {
    return String.join(", ", ALL.stream().map(NexmarkQuery::name).toList());
  }
}
