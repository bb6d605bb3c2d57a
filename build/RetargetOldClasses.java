import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

/**
 * Build step (run by the pom at package time): rewrites the classes of a jar compiled for Java 5
 * or older (picocli is) as Java 8 class files, with the stack map frames ASM computes. The JVM
 * verifies such classes with the fast type-checking verifier instead of the old inference one, and
 * the class-data archive of bin/mlv can hold them; together that was a quarter of a second of
 * every mlv start. Nothing else changes: same bytecode, same constant pool contents.
 *
 * <p>Usage: java -cp asm.jar build/RetargetOldClasses.java JAR...   (each jar rewritten in place)
 */
public class RetargetOldClasses {
  private static final int JAVA_6 = 50;

  public static void main(String[] args) throws IOException {
    for (String a : args) {
      Path jar = Path.of(a);
      int n = retarget(jar);
      if (n > 0) { // a jar rewritten before has nothing left to change
        System.out.println("[retarget] " + jar.getFileName() + ": " + n + " classes now Java 8");
      }
    }
  }

  private static int retarget(Path jar) throws IOException {
    Path out = jar.resolveSibling(jar.getFileName() + ".tmp");
    int changed = 0;
    try (JarFile in = new JarFile(jar.toFile());
        URLClassLoader types =
            new URLClassLoader(
                new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
        JarOutputStream dst = new JarOutputStream(Files.newOutputStream(out))) {
      for (Enumeration<JarEntry> e = in.entries(); e.hasMoreElements(); ) {
        JarEntry entry = e.nextElement();
        byte[] bytes;
        try (InputStream s = in.getInputStream(entry)) {
          bytes = s.readAllBytes();
        }
        if (entry.getName().endsWith(".class") && major(bytes) < JAVA_6) {
          bytes = rewrite(bytes, types);
          changed++;
        }
        JarEntry copy = new JarEntry(entry.getName());
        copy.setTime(entry.getTime()); // keeps the build reproducible
        dst.putNextEntry(copy);
        dst.write(bytes);
        dst.closeEntry();
      }
    }
    if (changed > 0) {
      Files.move(out, jar, StandardCopyOption.REPLACE_EXISTING);
    } else {
      Files.delete(out);
    }
    return changed;
  }

  private static int major(byte[] classFile) {
    return ((classFile[6] & 0xff) << 8) | (classFile[7] & 0xff);
  }

  private static byte[] rewrite(byte[] classFile, ClassLoader types) {
    ClassWriter writer =
        new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
          // Frames need the common superclass of two types, found by loading them (not
          // initialising) from the jar being rewritten.
          @Override
          protected ClassLoader getClassLoader() {
            return types;
          }
        };
    ClassVisitor toJava8 =
        new ClassVisitor(Opcodes.ASM9, writer) {
          @Override
          public void visit(
              int version,
              int access,
              String name,
              String signature,
              String superName,
              String[] interfaces) {
            super.visit(Opcodes.V1_8, access, name, signature, superName, interfaces);
          }
        };
    new ClassReader(classFile).accept(toJava8, 0);
    return writer.toByteArray();
  }
}
