package io.github.blake3fast;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A small JSON reader for the vector files (objects, arrays, strings, numbers, literals). */
final class Json {
  private final String s;
  private int i;

  private Json(String s) {
    this.s = s;
  }

  static Object parse(String text) {
    Json j = new Json(text);
    Object v = j.value();
    j.space();
    if (j.i != j.s.length()) {
      throw new IllegalArgumentException("trailing data at " + j.i);
    }
    return v;
  }

  private void space() {
    while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
      i++;
    }
  }

  private Object value() {
    space();
    char c = s.charAt(i);
    switch (c) {
      case '{':
        return object();
      case '[':
        return array();
      case '"':
        return string();
      case 't':
        return literal("true", Boolean.TRUE);
      case 'f':
        return literal("false", Boolean.FALSE);
      case 'n':
        return literal("null", null);
      default:
        return number();
    }
  }

  private Object literal(String word, Object v) {
    if (!s.startsWith(word, i)) {
      throw new IllegalArgumentException("bad literal at " + i);
    }
    i += word.length();
    return v;
  }

  private Map<String, Object> object() {
    Map<String, Object> m = new LinkedHashMap<>();
    i++;
    space();
    if (s.charAt(i) == '}') {
      i++;
      return m;
    }
    while (true) {
      space();
      String k = string();
      space();
      expect(':');
      m.put(k, value());
      space();
      if (s.charAt(i) == ',') {
        i++;
      } else {
        expect('}');
        return m;
      }
    }
  }

  private List<Object> array() {
    List<Object> a = new ArrayList<>();
    i++;
    space();
    if (s.charAt(i) == ']') {
      i++;
      return a;
    }
    while (true) {
      a.add(value());
      space();
      if (s.charAt(i) == ',') {
        i++;
      } else {
        expect(']');
        return a;
      }
    }
  }

  private String string() {
    expect('"');
    StringBuilder b = new StringBuilder();
    while (true) {
      char c = s.charAt(i++);
      if (c == '"') {
        return b.toString();
      }
      if (c == '\\') {
        char e = s.charAt(i++);
        switch (e) {
          case 'n': b.append('\n'); break;
          case 't': b.append('\t'); break;
          case 'r': b.append('\r'); break;
          case 'b': b.append('\b'); break;
          case 'f': b.append('\f'); break;
          case 'u': b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; break;
          default: b.append(e);
        }
      } else {
        b.append(c);
      }
    }
  }

  private Number number() {
    int start = i;
    while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
      i++;
    }
    String n = s.substring(start, i);
    if (n.isEmpty()) {
      throw new IllegalArgumentException("unexpected character at " + start);
    }
    return n.matches("-?\\d+") ? (Number) Long.parseLong(n) : (Number) Double.parseDouble(n);
  }

  private void expect(char c) {
    if (s.charAt(i) != c) {
      throw new IllegalArgumentException("expected '" + c + "' at " + i);
    }
    i++;
  }
}
