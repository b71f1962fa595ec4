package io.weir.runtime.graph;

import io.weir.api.datastream.JobConfig;
import io.weir.api.datastream.StreamPlan;
import io.weir.api.functions.OutputTag;
import io.weir.api.graph.ChainingStrategy;
import io.weir.api.graph.Input;
import io.weir.api.graph.OperatorSpec;
import io.weir.api.graph.Partitioning;
import io.weir.api.graph.Transformation;
import io.weir.api.state.StateSerializer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns the stream graph into the job graph. An operator joins its input's chain when it has one
 * input over a forward edge, the same parallelism, chaining is on for the job and for both
 * operators, and the input feeds nothing else; {@code keyBy}, {@code rebalance}, a union, a
 * parallelism change, {@code startNewChain} and {@code disableChaining} break the chain.
 */
public final class JobGraphBuilder {
  private JobGraphBuilder() {}

  public static JobGraph build(StreamPlan plan) {
    JobConfig config = plan.config();
    List<Transformation> transformations = plan.transformations();
    Map<Transformation, List<Transformation>> consumers = consumersOf(transformations);
    checkUids(transformations);
    TransactionIdSpaces.check(plan.jobName(), transformations);
    TransactionTimeouts.check(config, transformations);
    RecordSerializers serializers = new RecordSerializers(transformations, config);

    Map<Transformation, List<Transformation>> chains = new LinkedHashMap<>();
    Map<Transformation, Transformation> headOf = new HashMap<>();
    Map<Transformation, Integer> parallelism = new HashMap<>();
    for (Transformation t : transformations) {
      int p = t.parallelism() > 0 ? t.parallelism() : config.parallelism();
      parallelism.put(t, p);
      if (canChain(t, config, consumers, parallelism)) {
        Transformation head = headOf.get(t.inputs().get(0).from());
        chains.get(head).add(t);
        headOf.put(t, head);
      } else {
        chains.put(t, new ArrayList<>(List.of(t)));
        headOf.put(t, t);
      }
    }

    Map<Transformation, JobVertex> vertexByHead = new LinkedHashMap<>();
    chains.forEach(
        (head, chain) ->
            vertexByHead.put(
                head,
                new JobVertex(
                    "task-" + head.id(),
                    List.copyOf(chain),
                    parallelism.get(head),
                    JobVertex.keySelectorOf(head))));

    List<JobEdge> edges = new ArrayList<>();
    for (JobVertex target : vertexByHead.values()) {
      Transformation head = target.head();
      for (Input input : head.inputs()) {
        JobVertex source = vertexByHead.get(headOf.get(input.from()));
        Partitioning partitioning = input.partitioning();
        if (partitioning instanceof Partitioning.Forward
            && source.parallelism() != target.parallelism()) {
          partitioning = Partitioning.REBALANCE;
        }
        OutputTag<?> sideOutput = null;
        StateSerializer<?> serializer = serializers.of(input.from());
        if (head.spec() instanceof OperatorSpec.SideOutput side) {
          sideOutput = side.tag();
          // A side output's serializer is declared on the stream that getSideOutput returned.
          serializer = serializers.of(head);
        }
        edges.add(new JobEdge(source, target, partitioning, sideOutput, serializer));
      }
    }
    return new JobGraph(plan.jobName(), List.copyOf(vertexByHead.values()), edges, config);
  }

  private static boolean canChain(
      Transformation t,
      JobConfig config,
      Map<Transformation, List<Transformation>> consumers,
      Map<Transformation, Integer> parallelism) {
    if (!config.chaining() || t.inputs().size() != 1) {
      return false;
    }
    Input input = t.inputs().get(0);
    Transformation upstream = input.from();
    return input.partitioning() instanceof Partitioning.Forward
        && t.chainingStrategy() == ChainingStrategy.ALWAYS
        && upstream.chainingStrategy() != ChainingStrategy.NEVER
        && consumers.get(upstream).size() == 1
        && parallelism.get(upstream).equals(parallelism.get(t));
  }

  private static Map<Transformation, List<Transformation>> consumersOf(
      List<Transformation> transformations) {
    Map<Transformation, List<Transformation>> consumers = new HashMap<>();
    for (Transformation t : transformations) {
      consumers.putIfAbsent(t, new ArrayList<>());
      for (Input input : t.inputs()) {
        consumers.computeIfAbsent(input.from(), k -> new ArrayList<>()).add(t);
      }
    }
    return consumers;
  }

  private static void checkUids(List<Transformation> transformations) {
    Set<String> seen = new HashSet<>();
    for (Transformation t : transformations) {
      if (!seen.add(t.uid())) {
        throw new IllegalArgumentException(
            "Two operators have the uid '" + t.uid() + "'; uids must be unique in a job");
      }
    }
  }
}
