package io.proofline.service.config;

import io.proofline.engine.memory.ByteSizes;
import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.core.convert.converter.Converter;
import org.springframework.stereotype.Component;
import org.springframework.util.unit.DataSize;

/**
 * Binds every size property with the project's one grammar ({@link ByteSizes}), so that what the launcher and the
 * CLI accept ({@code PROOFLINE_MEMORY_LIMIT=4GiB}) the service accepts too; Spring's own {@code DataSize} parser knows
 * no {@code GiB}.
 */
@Component
@ConfigurationPropertiesBinding
class ByteSizeConverter implements Converter<String, DataSize> {

    @Override
    public DataSize convert(String text) {
        return DataSize.ofBytes(ByteSizes.parse(text));
    }
}
