import {
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  Container,
  Group,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import {
  IconAdjustments,
  IconClock,
  IconCloud,
  IconCoin,
  IconCreditCard,
  IconDownload,
  IconEraser,
  IconListCheck,
  IconPhotoEdit,
  IconShieldCheck,
  IconSofa,
  IconSparkles,
  IconSun,
  IconUpload,
  IconUsers,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { Link } from 'react-router';
import { BRAND_NAME, BrandMark } from '../../../components/BrandMark';
import { formatMoney } from '../../../lib/format-money';

type Icon = ComponentType<{ size?: number; stroke?: number }>;

const steps: { title: string; text: string; icon: Icon }[] = [
  {
    title: 'Upload your photos',
    text: 'Add every shot from the shoot, duplicates and brackets included.',
    icon: IconUpload,
  },
  {
    title: 'Choose your service',
    text: 'Pick the edit you need and tell us how many distinct photos to deliver.',
    icon: IconListCheck,
  },
  {
    title: 'Pay per photo',
    text: 'Pay securely by card for the distinct photos only. No subscription.',
    icon: IconCreditCard,
  },
  {
    title: 'Download the results',
    text: 'A professional editor picks the best version of each photo and delivers in 24-48 hours.',
    icon: IconDownload,
  },
];

/** Marketing 'starting at' prices, in cents; custom work is quoted per job. */
const services: { name: string; description: string; startingAtCents: number | null; icon: Icon }[] = [
  {
    name: 'Basic Enhancement',
    description: 'Colour, exposure and white balance corrected.',
    startingAtCents: 500,
    icon: IconAdjustments,
  },
  {
    name: 'HDR',
    description: 'Bracketed shots blended into bright, balanced rooms.',
    startingAtCents: 800,
    icon: IconSun,
  },
  {
    name: 'Virtual Staging',
    description: 'Empty rooms furnished so buyers can picture living there.',
    startingAtCents: 2500,
    icon: IconSofa,
  },
  {
    name: 'Sky Replacement',
    description: 'Grey skies swapped for clear blue ones.',
    startingAtCents: 1000,
    icon: IconCloud,
  },
  {
    name: 'Object Removal',
    description: 'Clutter, cars and personal items taken out.',
    startingAtCents: 1200,
    icon: IconEraser,
  },
  {
    name: 'Custom Editing',
    description: 'Anything else your listing needs, agreed with you.',
    startingAtCents: null,
    icon: IconSparkles,
  },
];

const reasons: { title: string; text: string; icon: Icon }[] = [
  { title: '24-48 hour turnaround', text: 'Listings go live on time, not next week.', icon: IconClock },
  {
    title: 'Fair, per-photo pricing',
    text: `From ${formatMoney(500)} to ${formatMoney(5000)} a photo, and only for the distinct photos you want.`,
    icon: IconCoin,
  },
  {
    title: 'Professional editors',
    text: 'Vetted editors who specialise in real-estate photography.',
    icon: IconUsers,
  },
  {
    title: 'Secure payments',
    text: 'Card payments handled by a trusted payment provider.',
    icon: IconShieldCheck,
  },
];

function SectionHeading({ eyebrow, title }: { eyebrow: string; title: string }) {
  return (
    <Stack gap={6} ta="center" mb="xl">
      <Text fw={700} c="harbor.8" tt="uppercase" fz="xs" style={{ letterSpacing: '0.1em' }}>
        {eyebrow}
      </Text>
      <Title order={2} fz={{ base: 26, sm: 32 }}>
        {title}
      </Title>
    </Stack>
  );
}

export function InfoPage() {
  useDocumentTitle(`How it works · ${BRAND_NAME}`);
  return (
    <Box bg="gray.0" mih="100dvh">
      <Box component="header" bg="white" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Container size="lg" py="sm">
          <Group justify="space-between" wrap="nowrap" gap="sm">
            <Anchor component={Link} to="/" underline="never" c="inherit" style={{ minWidth: 0, overflow: 'hidden' }}>
              <BrandMark compact />
            </Anchor>
            <Button component={Link} to="/login" variant="subtle" px={8} style={{ flexShrink: 0 }}>
              Sign in
            </Button>
          </Group>
        </Container>
      </Box>

      <Box component="main">
        <Box
          py={{ base: 48, sm: 80 }}
          style={{
            background: 'linear-gradient(160deg, var(--mantine-color-harbor-9) 0%, var(--mantine-color-harbor-7) 100%)',
          }}
        >
          <Container size="md" ta="center">
            <Badge variant="white" size="lg" mb="md" leftSection={<IconPhotoEdit size={14} aria-hidden="true" />}>
              Real-estate photo editing
            </Badge>
            <Title order={1} c="white" fz={{ base: 32, sm: 46 }} lh={1.15}>
              How it works
            </Title>
            <Text c="rgba(255, 255, 255, 0.85)" fz={{ base: 'md', sm: 'lg' }} mt="md" maw={640} mx="auto">
              Upload your listing photos, choose an edit and pay per photo. Professional editors deliver polished
              results in 24-48 hours.
            </Text>
            <Group justify="center" mt="xl" gap="sm">
              <Button component={Link} to="/create-order" size="md" variant="white">
                Create an order
              </Button>
              <Button
                component={Link}
                to="/signup"
                size="md"
                variant="outline"
                color="white"
                styles={{ root: { borderColor: 'rgba(255,255,255,0.7)' } }}
              >
                Sign up free
              </Button>
            </Group>
          </Container>
        </Box>

        <Container size="lg" py={{ base: 48, sm: 72 }}>
          <SectionHeading eyebrow="Four steps" title="From shoot to listing" />
          <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="lg" component="ol" style={{ listStyle: 'none' }} p={0}>
            {steps.map((step, index) => (
              <Card component="li" key={step.title}>
                <Group gap="sm" mb="sm">
                  <ThemeIcon size={40} radius="md" variant="light" aria-hidden="true">
                    <step.icon size={22} stroke={1.7} />
                  </ThemeIcon>
                  <Text fw={700} c="dimmed" fz="sm">
                    Step {index + 1}
                  </Text>
                </Group>
                <Title order={3} fz="lg" mb={6}>
                  {step.title}
                </Title>
                <Text c="dimmed" fz="sm">
                  {step.text}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
        </Container>

        <Box bg="white" py={{ base: 48, sm: 72 }}>
          <Container size="lg">
            <SectionHeading eyebrow="Services" title="Edits for every listing" />
            <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
              {services.map((service) => (
                <Card key={service.name}>
                  <Group justify="space-between" align="flex-start" mb="sm" wrap="nowrap">
                    <ThemeIcon size={40} radius="md" variant="light" aria-hidden="true">
                      <service.icon size={22} stroke={1.7} />
                    </ThemeIcon>
                    <Text ta="right" fz="sm" c="dimmed">
                      {service.startingAtCents === null ? (
                        <Text span fw={700} c="dark" fz="lg">
                          Custom pricing
                        </Text>
                      ) : (
                        <>
                          starting at{' '}
                          <Text span fw={700} c="dark" fz="lg">
                            {formatMoney(service.startingAtCents)}
                          </Text>
                        </>
                      )}
                    </Text>
                  </Group>
                  <Title order={3} fz="lg" mb={6}>
                    {service.name}
                  </Title>
                  <Text c="dimmed" fz="sm">
                    {service.description}
                  </Text>
                </Card>
              ))}
            </SimpleGrid>
          </Container>
        </Box>

        <Container size="lg" py={{ base: 48, sm: 72 }}>
          <SectionHeading eyebrow="Why us" title="Why photographers choose us" />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xl">
            {reasons.map((reason) => (
              <Group key={reason.title} align="flex-start" wrap="nowrap" gap="md">
                <ThemeIcon size={44} radius="xl" aria-hidden="true">
                  <reason.icon size={22} stroke={1.7} />
                </ThemeIcon>
                <div>
                  <Title order={3} fz="lg" mb={4}>
                    {reason.title}
                  </Title>
                  <Text c="dimmed">{reason.text}</Text>
                </div>
              </Group>
            ))}
          </SimpleGrid>

          <Card
            mt={56}
            p={{ base: 'lg', sm: 40 }}
            bg="harbor.0"
            style={{ borderColor: 'var(--mantine-color-harbor-2)' }}
          >
            <Stack align="center" ta="center" gap="md">
              <Title order={2} fz={{ base: 22, sm: 28 }}>
                Ready to make your listings stand out?
              </Title>
              <Text c="dimmed" maw={520}>
                Create an account in a minute and place your first order today.
              </Text>
              <Group justify="center" gap="sm">
                <Button component={Link} to="/create-order" size="md">
                  Create an order
                </Button>
                <Button component={Link} to="/signup" size="md" variant="default">
                  Sign up
                </Button>
              </Group>
            </Stack>
          </Card>
        </Container>
      </Box>
    </Box>
  );
}
