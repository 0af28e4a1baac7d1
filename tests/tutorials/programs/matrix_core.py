# TF's "Matrix approximation with Core APIs" guide (site/en/guide/core/matrix_core.ipynb): its
# code cells in order, for tests/tutorials. Edits are marked "simdist test:": the random
# matrix seeded, a synthetic 96x128 photo instead of the downloaded one, and the plots left
# out (matplotlib: the singular values, the approximations and images, printed instead).
import tensorflow as tf

from tutorial_data import synthetic_photo  # simdist test: not the download

print(tf.__version__)
tf.random.set_seed(11)  # simdist test: seeded
A = tf.random.uniform(shape=[40,30])
# Compute the SVD factorization
s, U, V = tf.linalg.svd(A)
# Define Sigma and V Transpose
S = tf.linalg.diag(s)
V_T = tf.transpose(V)
# Reconstruct the original matrix
A_svd = U@S@V_T
# simdist test: the bar graph of the singular values, printed instead
print(s[:5], s[-3:])

A_svd = tf.einsum('s,us,vs -> uv',s,U,V)
print('\nReconstructed Matrix, A_svd', A_svd)

def rank_r_approx(s, U, V, r, verbose=False):
  # Compute the matrices necessary for a rank-r approximation
  s_r, U_r, V_r = s[..., :r], U[..., :, :r], V[..., :, :r] # ... implies any number of extra batch axes
  # Compute the low-rank approximation and its size
  A_r = tf.einsum('...s,...us,...vs->...uv',s_r,U_r,V_r)
  A_r_size = tf.size(U_r) + tf.size(s_r) + tf.size(V_r)
  if verbose:
    print(f"Approximation Size: {A_r_size}")
  return A_r, A_r_size

def viz_approx(A, A_r):
  # simdist test: the three plots (A, A_r, |A - A_r|), their scale and errors printed
  vmin, vmax = 0, tf.reduce_max(A)
  print(float(vmax), float(tf.reduce_max(abs(A - A_r))), float(tf.reduce_mean(abs(A - A_r))))

print(f"Original Size of A: {tf.size(A)}")
s, U, V = tf.linalg.svd(A)

# Rank-15 approximation
A_15, A_15_size = rank_r_approx(s, U, V, 15, verbose = True)
viz_approx(A, A_15)

# Rank-3 approximation
A_3, A_3_size = rank_r_approx(s, U, V, 3, verbose = True)
viz_approx(A, A_3)

I = synthetic_photo()  # simdist test: was imread of the downloaded photo
print("Input Image Shape:", I.shape)

def show_img(I):
  # simdist test: was plt.imshow; the image's mean per channel printed instead
  print("image means:", tf.reduce_mean(tf.cast(I, tf.float32), axis=[0, 1]).numpy())
  return

show_img(I)

def compress_image(I, r, verbose=False):
  # Compress an image with the SVD given a rank 
  I_size = tf.size(I)
  print(f"Original size of image: {I_size}")
  # Compute SVD of image
  I = tf.convert_to_tensor(I)/255
  I_batched = tf.transpose(I, [2, 0, 1]) # einops.rearrange(I, 'h w c -> c h w')
  s, U, V = tf.linalg.svd(I_batched)
  # Compute low-rank approximation of image across each RGB channel
  I_r, I_r_size = rank_r_approx(s, U, V, r)
  I_r = tf.transpose(I_r, [1, 2, 0]) # einops.rearrange(I_r, 'c h w -> h w c')
  I_r_prop = (I_r_size / I_size)
  if verbose:
    # Display compressed image and attributes
    print(f"Number of singular values used in compression: {r}")
    print(f"Compressed image size: {I_r_size}")
    print(f"Proportion of original size: {I_r_prop:.3f}")
    show_img(tf.clip_by_value(I_r,0.,1.))  # simdist test: the subplots' titles dropped
    show_img(tf.clip_by_value(0.5+abs(I-I_r),0.,1.))
  return I_r, I_r_prop

I_100, I_100_prop = compress_image(I, 100, verbose=True)

I_50, I_50_prop = compress_image(I, 50, verbose=True)

I_10, I_10_prop = compress_image(I, 10, verbose=True)

# simdist test: the plot of compression factor against rank, printed instead
print([100, 50, 10], [float(I_100_prop), float(I_50_prop), float(I_10_prop)])

def compress_image_with_factor(I, compression_factor, verbose=False):
  # Returns a compressed image based on a desired compression factor
  m,n,o = I.shape
  r = int((compression_factor * m * n)/(m + n + 1))
  I_r, I_r_prop = compress_image(I, r, verbose=verbose)
  return I_r

compression_factor = 0.15
I_r_img = compress_image_with_factor(I, compression_factor, verbose=True)

def viz_energy(I):
  # Visualize the energy captured based on rank
  # Computing SVD
  I = tf.convert_to_tensor(I)/255
  I_batched = tf.transpose(I, [2, 0, 1]) 
  s, U, V = tf.linalg.svd(I_batched)
  # Plotting average proportion across RGB channels 
  props_rgb = tf.map_fn(lambda x: tf.cumsum(x)/tf.reduce_sum(x), s)
  props_rgb_mean = tf.reduce_mean(props_rgb, axis=0)
  # simdist test: the plot of the proportions, some printed instead (to 5 places: the last
  # is 1 within rounding, and NumPy prints an exact 1 as "1.")
  print(len(range(len(I))), [f"{p:.5f}" for p in props_rgb_mean[:4]],
        [f"{p:.5f}" for p in props_rgb_mean[-2:]])

viz_energy(I)

def compress_image_with_energy(I, energy_factor, verbose=False):
  # Returns a compressed image based on a desired energy factor
  # Computing SVD
  I_rescaled = tf.convert_to_tensor(I)/255
  I_batched = tf.transpose(I_rescaled, [2, 0, 1]) 
  s, U, V = tf.linalg.svd(I_batched)
  # Extracting singular values
  props_rgb = tf.map_fn(lambda x: tf.cumsum(x)/tf.reduce_sum(x), s)
  props_rgb_mean = tf.reduce_mean(props_rgb, axis=0)
  # Find closest r that corresponds to the energy factor
  r = tf.argmin(tf.abs(props_rgb_mean - energy_factor)) + 1
  actual_ef = props_rgb_mean[r]
  I_r, I_r_prop = compress_image(I, r, verbose=verbose)
  print(f"Proportion of energy captured by the first {r} singular values: {actual_ef:.3f}")
  return I_r

energy_factor = 0.75
I_r_img = compress_image_with_energy(I, energy_factor, verbose=True)

s, U, V = tf.linalg.svd(A)
A_10, A_10_size = rank_r_approx(s, U, V, 10)
squared_norm = tf.norm(A - A_10)**2
s_squared_sum = tf.reduce_sum(s[10:]**2)
print(f"Squared Frobenius norm: {squared_norm:.3f}")
print(f"Sum of squared singular values left out: {s_squared_sum:.3f}")
