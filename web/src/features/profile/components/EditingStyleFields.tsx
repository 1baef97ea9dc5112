import { Group, Radio, SimpleGrid, Stack, Switch, Textarea } from '@mantine/core';
import {
  EDITING_STYLE_NOTES_MAX,
  type EditingStyle,
  hdrLookChoices,
  hdrLookLabels,
  skyChoices,
  skyLabels,
  tvScreenChoices,
  tvScreenLabels,
  whiteBalanceChoices,
  whiteBalanceLabels,
} from '@marketplace/events/editing-style';

type Choice<K extends string> = { choices: readonly K[]; labels: Record<K, string> };

function ChoiceGroup<K extends string>({
  label,
  value,
  onChange,
  choices,
  labels,
  error,
}: Choice<K> & { label: string; value: K; onChange: (value: K) => void; error?: string | undefined }) {
  return (
    <Radio.Group label={label} value={value} onChange={(next) => onChange(next as K)} error={error}>
      <Group gap="md" mt={6}>
        {choices.map((choice) => (
          <Radio key={choice} value={choice} label={labels[choice]} />
        ))}
      </Group>
    </Radio.Group>
  );
}

const switches = [
  ['windowPull', 'Window pull (show the view through the windows)'],
  ['lawnGreening', 'Lawn greening'],
  ['fireplaceFire', 'Fire in fireplaces'],
  ['straightenVerticals', 'Straighten verticals'],
] as const satisfies readonly (readonly [keyof EditingStyle, string])[];

/**
 * The choices of an editing style, as one controlled group of fields: on /profile (the saved
 * style) and on create-order ('Change for this order'). Reference photos are handled by the caller.
 */
export function EditingStyleFields({
  style,
  onChange,
  errors = {},
}: {
  style: EditingStyle;
  onChange: (change: Partial<EditingStyle>) => void;
  errors?: Partial<Record<keyof EditingStyle, string>>;
}) {
  return (
    <Stack gap="md">
      <ChoiceGroup
        label="Sky"
        value={style.sky}
        onChange={(sky) => onChange({ sky })}
        choices={skyChoices}
        labels={skyLabels}
        error={errors.sky}
      />
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        <ChoiceGroup
          label="HDR look"
          value={style.hdrLook}
          onChange={(hdrLook) => onChange({ hdrLook })}
          choices={hdrLookChoices}
          labels={hdrLookLabels}
          error={errors.hdrLook}
        />
        <ChoiceGroup
          label="White balance"
          value={style.whiteBalance}
          onChange={(whiteBalance) => onChange({ whiteBalance })}
          choices={whiteBalanceChoices}
          labels={whiteBalanceLabels}
          error={errors.whiteBalance}
        />
        <ChoiceGroup
          label="TV screens"
          value={style.tvScreens}
          onChange={(tvScreens) => onChange({ tvScreens })}
          choices={tvScreenChoices}
          labels={tvScreenLabels}
          error={errors.tvScreens}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {switches.map(([field, label]) => (
          <Switch
            key={field}
            label={label}
            checked={style[field]}
            onChange={(event) => onChange({ [field]: event.currentTarget.checked })}
            error={errors[field]}
          />
        ))}
      </SimpleGrid>
      <Textarea
        label="Notes for the editor"
        description={`Anything else about your look, at most ${EDITING_STYLE_NOTES_MAX} characters.`}
        value={style.notes}
        onChange={(event) => onChange({ notes: event.currentTarget.value })}
        maxLength={EDITING_STYLE_NOTES_MAX}
        autosize
        minRows={2}
        maxRows={6}
        error={errors.notes}
      />
    </Stack>
  );
}
