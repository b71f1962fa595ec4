package io.weir.kafka.format;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.databind.DatabindException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.List;

/**
 * The JSON side of the Kafka record formats: the mapper they use unless a job gives its own, and
 * Jackson's failures as one line a user can act on.
 */
public final class Json {
  private Json() {}

  /**
   * A mapper that reads a value only when it fits the type: a Java record's component missing from
   * the JSON, a {@code null} for a primitive, a value of the wrong type or anything after the JSON
   * value fails; fields the type does not have are ignored, so that producers may add fields before
   * every reader knows them.
   */
  public static ObjectMapper strictMapper() {
    return JsonMapper.builder()
        .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .build();
  }

  /**
   * Why {@code value} could not be read as {@code type}, in one line: {@code not JSON: <what> at
   * line L, column C} or {@code JSON does not fit Order at 'items[2].price': <what>}.
   */
  public static String problem(JacksonException failure, Class<?> type) {
    String what = oneLine(failure.getOriginalMessage());
    if (failure instanceof DatabindException databind) {
      String path = path(databind);
      return "JSON does not fit "
          + type.getSimpleName()
          + (path.isEmpty() ? "" : " at '" + path + "'")
          + ": "
          + what;
    }
    JsonLocation location = failure.getLocation();
    return "not JSON: "
        + what
        + (location == null
            ? ""
            : " at line " + location.getLineNr() + ", column " + location.getColumnNr());
  }

  private static String path(DatabindException failure) {
    if (!(failure instanceof JsonMappingException mapping)) {
      return "";
    }
    StringBuilder path = new StringBuilder();
    List<JsonMappingException.Reference> references = mapping.getPath();
    for (JsonMappingException.Reference reference : references) {
      if (reference.getFieldName() != null) {
        if (!path.isEmpty()) {
          path.append('.');
        }
        path.append(reference.getFieldName());
      } else if (reference.getIndex() >= 0) {
        path.append('[').append(reference.getIndex()).append(']');
      }
    }
    return path.toString();
  }

  /** {@code text} with its line breaks and runs of white space as single spaces. */
  public static String oneLine(String text) {
    return text == null ? "" : text.replaceAll("\\s+", " ").strip();
  }
}
