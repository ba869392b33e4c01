package example.spark;

import io.github.blake3fast.Blake3;
import java.nio.file.Path;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/** spark-submit --class example.spark.Main blake3-spark.jar FILE [PARTITIONS]: prints b3sum's line. */
public final class Main {
  private Main() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 1 || args.length > 2) {
      System.err.println("usage: Main FILE [PARTITIONS]");
      System.exit(2);
    }
    Path file = Path.of(args[0]);
    SparkConf conf = new SparkConf().setAppName("blake3").setIfMissing("spark.master", "local[2]");
    try (JavaSparkContext sc = new JavaSparkContext(conf)) {
      int partitions = args.length > 1 ? Integer.parseInt(args[1]) : sc.defaultParallelism();
      DistributedBlake3.Result r = DistributedBlake3.hash(sc, file, partitions);
      System.out.println(Blake3.toHex(r.hash) + "  " + args[0]);
    }
  }
}
