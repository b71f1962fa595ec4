package io.weir.api.datastream;

import io.weir.api.annotation.PublicEvolving;
import io.weir.api.graph.Transformation;
import java.util.List;

/** A job as the user described it: its name, its stream graph in creation order, its config. */
@PublicEvolving
public record StreamPlan(String jobName, List<Transformation> transformations, JobConfig config) {}
