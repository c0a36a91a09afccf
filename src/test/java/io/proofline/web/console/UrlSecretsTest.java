package io.proofline.web.console;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class UrlSecretsTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            jdbc:postgresql://proofline:s3cr3t@db:5432/proofline                | jdbc:postgresql://proofline:****@db:5432/proofline
            jdbc:postgresql://proofline:p@ss@word@db/proofline?ssl=true         | jdbc:postgresql://proofline:****@db/proofline?ssl=true
            jdbc:postgresql://db:5432/proofline?user=proofline&password=s3cr3t  | jdbc:postgresql://db:5432/proofline?user=proofline&password=****
            jdbc:postgresql://db/proofline?password=s3cr3t&ssl=true             | jdbc:postgresql://db/proofline?password=****&ssl=true
            jdbc:postgresql://db/proofline?sslpassword=s3cr3t                   | jdbc:postgresql://db/proofline?sslpassword=****
            jdbc:mysql://db/proofline?user=u&PASSWORD=s3cr3t                    | jdbc:mysql://db/proofline?user=u&PASSWORD=****
            jdbc:h2:file:./data/db/proofline;MODE=PostgreSQL;PASSWORD=s3cr3t    | jdbc:h2:file:./data/db/proofline;MODE=PostgreSQL;PASSWORD=****
            jdbc:h2:mem:x;CIPHER=AES;FILE_PASSWORD=s3cr3t;USER=sa               | jdbc:h2:mem:x;CIPHER=AES;FILE_PASSWORD=****;USER=sa
            jdbc:sqlserver://db:1433;user=u;password = s3cr3t ;encrypt=true     | jdbc:sqlserver://db:1433;user=u;password = ****;encrypt=true
            jdbc:oracle:thin:scott/tiger@db:1521:orcl                           | jdbc:oracle:thin:scott/****@db:1521:orcl
            jdbc:db2://db:50000/p:user=u;password=s3cr3t;                       | jdbc:db2://db:50000/p:user=u;password=****;
            jdbc:snowflake://acct.snowflakecomputing.com/?token=abc&db=p        | jdbc:snowflake://acct.snowflakecomputing.com/?token=****&db=p
            jdbc:h2:file:./data/db/proofline;MODE=PostgreSQL;DB_CLOSE_ON_EXIT=FALSE | jdbc:h2:file:./data/db/proofline;MODE=PostgreSQL;DB_CLOSE_ON_EXIT=FALSE
            jdbc:postgresql://db:5432/proofline                                 | jdbc:postgresql://db:5432/proofline
            """)
    void masksEverySecretAndKeepsTheRest(String url, String expected) {
        assertThat(UrlSecrets.mask(url)).isEqualTo(expected).doesNotContain("s3cr3t").doesNotContain("tiger");
    }

    @Test
    void aBracedSqlServerPasswordIsMaskedWhole() {
        String masked = UrlSecrets.mask("jdbc:sqlserver://db;password={se;cr;et};user=u");
        assertThat(masked).isEqualTo("jdbc:sqlserver://db;password=****;user=u");
    }

    @Test
    void nullStaysNull() {
        assertThat(UrlSecrets.mask(null)).isNull();
    }
}
